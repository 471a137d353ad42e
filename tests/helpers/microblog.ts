import { db } from "@/lib/adapters/db";
import { authAccounts } from "@/drizzle/schema";
import { getProfileContextOp } from "@/lib/operations/owner/get-profile-context";
import { call, expectOk, type TestUser } from "./api";

// A microblog's accounts without a network behind them: what connecting Bluesky with an app
// password stores (no PDS is asked), and the accounts as get_profile_context lists them.

/** A Bluesky connection as connecting with an app password stores it. */
export async function connectBluesky(u: TestUser, did = `did:plc:${u.id.replace(/-/g, "").slice(0, 24)}`) {
  await (await db()).insert(authAccounts).values({
    userId: u.id,
    type: "app_password",
    provider: "bluesky",
    providerAccountId: did,
    access_token: "bsky-access",
    refresh_token: "bsky-refresh",
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    handle: "writer.bsky.test",
  });
}

/** The caller's accounts, as get_profile_context answers them. */
export async function accounts(u: TestUser) {
  const p = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
  return p.accounts as { account_id: string; platform: string; network: string; default: boolean; handle: string | null }[];
}
