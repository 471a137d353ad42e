import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { storePlatformTokens } from "@/lib/domain/owner/sign-in";
import { connectedAccount } from "@/lib/adapters/platforms";
import { authAccounts } from "@/drizzle/schema";
import { listAccounts } from "@/lib/domain/accounts/accounts";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

const row = async (id: string) => (await (await db()).select().from(authAccounts).where(eq(authAccounts.providerAccountId, id)))[0];

describe("LinkedIn and X connections on sign-in", () => {
  it("stores new tokens on a reconnect but never wipes a stored refresh token", async () => {
    const u = await makeUser();
    await (await db()).insert(authAccounts).values({
      userId: u.id,
      type: "oauth",
      provider: "linkedin",
      providerAccountId: "li-123",
      access_token: "old-access",
      refresh_token: "kept-refresh",
      expires_at: 1,
      status: "needs_reconnect",
    });
    // LinkedIn often answers a reconnect without a refresh token.
    await storePlatformTokens(
      await db(),
      {
        provider: "linkedin",
        providerAccountId: "li-123",
        access_token: "new-access",
        expires_at: 2_000_000_000,
        scope: "openid profile email w_member_social",
      },
      { name: "Ada Lovelace" },
    );
    let r = await row("li-123");
    expect(r).toMatchObject({
      access_token: "new-access",
      refresh_token: "kept-refresh",
      status: "connected",
      handle: "Ada Lovelace",
      scope: "openid profile email w_member_social",
    });
    // A new refresh token (X rotates them) replaces the old one.
    await storePlatformTokens(await db(), { provider: "linkedin", providerAccountId: "li-123", access_token: "newer", refresh_token: "rotated" }, {});
    r = await row("li-123");
    expect(r).toMatchObject({ access_token: "newer", refresh_token: "rotated", handle: "Ada Lovelace" });
  });

  it("a sign-in with another account of a network adds it beside the first, which stays the default; the same one again only renews", async () => {
    const u = await makeUser();
    const other = await makeUser();
    const d = await db();
    await d.insert(authAccounts).values([
      { userId: u.id, type: "oauth", provider: "twitter", providerAccountId: "x-alice", access_token: "alice", handle: "@alice" },
      { userId: u.id, type: "oauth", provider: "linkedin", providerAccountId: "li-kept", access_token: "li" },
      { userId: other.id, type: "oauth", provider: "twitter", providerAccountId: "x-carol", access_token: "carol" },
    ]);
    const first = await connectedAccount(d, u.id, "micro");
    expect(first).toMatchObject({ providerAccountId: "x-alice" });
    // next-auth links the newly chosen account, then the sign-in event stores its tokens.
    await d.insert(authAccounts).values({ userId: u.id, type: "oauth", provider: "twitter", providerAccountId: "x-bob" });
    await storePlatformTokens(d, { provider: "twitter", providerAccountId: "x-bob", access_token: "bob", refresh_token: "r" }, { data: { username: "bob" } });
    await storePlatformTokens(
      d,
      { provider: "twitter", providerAccountId: "x-bob", access_token: "bob-2", refresh_token: "r2" },
      { data: { username: "bob" } },
    );
    expect(await row("x-alice")).toBeDefined();
    const xs = (await listAccounts(d, u.id)).filter((a) => a.platform === "micro");
    expect(xs.map((a) => [a.handle, a.default])).toEqual([
      ["@alice", true],
      ["@bob", false],
    ]);
    expect(await connectedAccount(d, u.id, "micro")).toMatchObject({ providerAccountId: "x-alice" });
    expect(await connectedAccount(d, u.id, "micro", xs[1].account_id)).toMatchObject({ providerAccountId: "x-bob", access_token: "bob-2", handle: "@bob" });
    // The owner's other network and another user's account of the same network stay theirs.
    expect(await row("li-kept")).toBeDefined();
    expect(await row("x-carol")).toBeDefined();
    await expect(connectedAccount(d, other.id, "micro", xs[1].account_id)).rejects.toMatchObject({ code: "action_failed" });
  });

  it("takes X's @username as the handle", async () => {
    const u = await makeUser();
    await (await db()).insert(authAccounts).values({ userId: u.id, type: "oauth", provider: "twitter", providerAccountId: "x-9" });
    await storePlatformTokens(
      await db(),
      { provider: "twitter", providerAccountId: "x-9", access_token: "a", refresh_token: "r" },
      { data: { username: "ada" } },
    );
    expect((await row("x-9")).handle).toBe("@ada");
  });
});
