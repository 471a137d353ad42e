import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { accountHealth } from "@/lib/domain/accounts/health";
import { platformAccounts } from "@/lib/domain/accounts/connections";
import { authAccounts, postDrafts } from "@/drizzle/schema";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { draft, inSeconds } from "../helpers/publishing";

// A LinkedIn/X connection that cannot renew itself stops publishing when its token expires:
// the owner is warned from 7 days before, and nothing can be scheduled past it.
withDatabase();
const DAY = 86400;

withConfig({ LINKEDIN_CLIENT_ID: "li-app", LINKEDIN_CLIENT_SECRET: "li-secret", SCHEDULE_MIN_LEAD_SECONDS: "1" });

async function connect(u: TestUser, expiresInDays: number, refresh: string | null) {
  const expires_at = Math.floor(Date.now() / 1000) + expiresInDays * DAY;
  await (
    await db()
  )
    .insert(authAccounts)
    .values({
      userId: u.id,
      type: "oauth",
      provider: "linkedin",
      providerAccountId: `li-${u.id}`,
      access_token: "a",
      refresh_token: refresh,
      expires_at,
      handle: "Ada",
    })
    .onConflictDoUpdate({ target: [authAccounts.provider, authAccounts.providerAccountId], set: { expires_at, refresh_token: refresh } });
}

describe("a connection's expiry", () => {
  it("schedule_content refuses a time after the connection can no longer publish, with a hint to reconnect", async () => {
    const u = await makeUser({ publishing: true });
    await connect(u, 3, null);
    const d = await draft(u);
    const late = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(4 * DAY).toISOString() }, { token: u.token });
    expectError(late, 422, "action_failed");
    expect(late.body.error.message).toMatch(/^The LinkedIn connection can publish only until .* cannot renew itself/);
    expect(late.body.error.hint).toMatch(/reconnect LinkedIn in Settings > Connections/);
    // Before the expiry it goes on to the usual approval.
    expectError(
      await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(2 * DAY).toISOString() }, { token: u.token }),
      403,
      "confirmation_required",
    );
    // A connection that renews itself has no such limit.
    await connect(u, 3, "refresh");
    expectError(
      await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(4 * DAY).toISOString() }, { token: u.token }),
      403,
      "confirmation_required",
    );
  });

  it("warns from 7 days before expiry and names the scheduled posts at risk", async () => {
    const u = await makeUser({ publishing: true });
    await connect(u, 30, null);
    let [li] = await accountHealth(await db(), u.id, ports());
    expect(li).toMatchObject({ provider: "linkedin", canRefresh: false, expiring: false });
    const early = await draft(u, "post", "Before the expiry");
    const after = await draft(u, "post", "After the expiry");
    const set = async (id: string, at: Date) => (await db()).update(postDrafts).set({ status: "scheduled", scheduledFor: at }).where(eq(postDrafts.id, id));
    await set(early.id, inSeconds(2 * DAY));
    await set(after.id, inSeconds(6 * DAY)); // scheduled while the connection still renewed itself
    await connect(u, 5, null);
    [li] = await accountHealth(await db(), u.id, ports());
    expect(li.expiring).toBe(true);
    expect(li.atRisk.map((p) => p.title)).toEqual(["After the expiry"]);
    await connect(u, 5, "refresh");
    [li] = await accountHealth(await db(), u.id, ports());
    expect(li).toMatchObject({ canRefresh: true, until: null, expiring: false, atRisk: [] });
  });

  it("Settings and the API give one answer for an expired connection that cannot renew itself", async () => {
    const u = await makeUser({ publishing: true });
    await connect(u, -1, null);
    const [li] = await platformAccounts(await db(), u.id);
    expect(li).toMatchObject({ provider: "linkedin", state: "needs_reconnect" });
    const d = await draft(u);
    // Any time, even one a minute away: the connection can publish nothing until renewed.
    const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(60).toISOString() }, { token: u.token });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toMatch(/LinkedIn connection needs renewing/);
    await connect(u, -1, "refresh");
    expect((await platformAccounts(await db(), u.id))[0].state).toBe("connected");
  });
});
