import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { storePlatformTokens } from "@/lib/domain/owner-auth";
import { authAccounts } from "@/drizzle/schema";
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
