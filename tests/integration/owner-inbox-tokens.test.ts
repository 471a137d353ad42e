import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { config } from "@/lib/core/config";
import { listConnectedApps } from "@/lib/domain/accounts/connections";
import { issuePersonalToken } from "@/lib/domain/apps/personal-tokens";
import { revokeApp } from "@/lib/domain/apps/tokens";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { approvalInbox } from "@/lib/domain/approvals/inbox";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { draft } from "../helpers/publishing";

// Settings > Connections' personal tokens and the approvals inbox, through their domain
// functions: each scoped to the owner.
withDatabase();

describe("personal tokens", () => {
  it("work at once on the REST API, are listed as personal with their end, and stop when revoked", async () => {
    const u = await makeUser();
    const now = new Date();
    const t = await issuePersonalToken(await db(), u.id, { appName: "Script", expiresIn: 7 * 86400, audience: [config().baseUrl, config().mcpUrl], now });
    expect(t.access_token).toMatch(/^cto_at_/);
    expect((await call("search_content", { query: "x" }, { token: t.access_token })).status).toBe(200);
    const apps = await listConnectedApps(await db(), u.id);
    const mine = apps.find((a) => a.id === t.app_id)!;
    expect(mine).toMatchObject({ name: "Script", personal: true, scopes: ["email"] });
    expect(mine.tokenExpiresAt?.getTime()).toBe(now.getTime() + 7 * 86400_000);
    // Another user sees none of it, and cannot revoke it.
    const other = await makeUser();
    expect((await listConnectedApps(await db(), other.id)).some((a) => a.id === t.app_id)).toBe(false);
    expect(await revokeApp(await db(), other.id, t.app_id)).toBe(false);
    expect(await revokeApp(await db(), u.id, t.app_id)).toBe(true);
    expect((await call("search_content", { query: "x" }, { token: t.access_token })).status).toBe(401);
  });
});

describe("the approvals inbox", () => {
  it("lists the owner's pending, unexpired requests with their content, soonest first, and nobody else's", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "Ship it today.");
    const asked = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    expect(asked.body.error.code).toBe("confirmation_required");
    const inbox = await approvalInbox(await db(), u.id);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ id: asked.body.error.confirmation.id, operation: "publish_now", body: "Ship it today.", selfRegistered: false });
    expect(inbox[0].action).toMatchObject({ type: "post", id: d.id });
    const other = await makeUser({ publishing: true });
    expect(await approvalInbox(await db(), other.id)).toEqual([]);
    // Past its expiry it is gone; decided, too.
    expect(await approvalInbox(await db(), u.id, new Date(Date.now() + 11 * 60_000))).toEqual([]);
    expect(await decideApproval(await db(), u.id, inbox[0].id, "denied")).toBe(true);
    expect(await approvalInbox(await db(), u.id)).toEqual([]);
  });
});
