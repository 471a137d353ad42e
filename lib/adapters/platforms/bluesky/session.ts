import { AppError, invalid } from "@/lib/core/errors";
import type { PasswordSession } from "@/lib/domain/ports";
import { PublishError } from "@/lib/domain/networks/platform";
import type { Refresher, Tokens } from "../tokens";
import { IdentityError, normalHandle, resolveIdentity } from "./identity";
import { NET, xrpc, xrpcError } from "./xrpc";

// A Bluesky session made with a handle and an app password (com.atproto.server.createSession),
// kept as its tokens only: the access JWT (hours) and the refresh JWT that renews it
// (com.atproto.server.refreshSession, which rotates both). The password is used for that one
// call and never stored. An app password's session can post, but cannot change the account's
// e-mail, password or app passwords; a session made with the account's own password can, so
// it is ended at once and refused (the token's `scope` says which was given).

type SessionAnswer = { did?: unknown; handle?: unknown; accessJwt?: unknown; refreshJwt?: unknown };

/** A JWT's claims, read without verifying it (the PDS that issued it checks it; this only reads its expiry and scope). */
function claims(jwt: string): { exp?: number; scope?: string } {
  try {
    return JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as { exp?: number; scope?: string };
  } catch {
    return {};
  }
}

/** The scopes of a session made with an app password (a privileged one may also read direct messages). */
const APP_PASSWORD_SCOPES = new Set(["com.atproto.appPass", "com.atproto.appPassPrivileged"]);

const tokensOf = (a: SessionAnswer): Tokens & { expires_at: number | null } => {
  const access = a.accessJwt as string;
  const exp = claims(access).exp;
  return {
    access_token: access,
    refresh_token: a.refreshJwt as string,
    expires_at: typeof exp === "number" ? exp : null,
    expires_in: typeof exp === "number" ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : undefined,
  };
};

const complete = (a: SessionAnswer | null): a is SessionAnswer =>
  !!a && typeof a.did === "string" && typeof a.accessJwt === "string" && typeof a.refreshJwt === "string";

/** Connecting failed for a reason the owner can act on: action_failed with a hint. */
const cannot = (message: string, hint = "Check the handle and the app password, then try again.") => new AppError("action_failed", message, hint);

/**
 * Signs in to the account's own PDS with an app password: handle -> DID -> PDS, then
 * createSession. What comes back is what a connection keeps; the password goes nowhere else.
 */
export async function signInWithAppPassword(rawHandle: string, password: string): Promise<PasswordSession> {
  const handle = normalHandle(rawHandle);
  if (!handle) throw invalid([{ path: "handle", message: "A Bluesky handle is a domain name, e.g. alice.bsky.social" }]);
  let who;
  try {
    who = await resolveIdentity(handle);
  } catch (e) {
    if (e instanceof IdentityError) throw cannot(e.message, "Check the handle (as Bluesky shows it on the profile), then try again.");
    throw e;
  }
  let res;
  try {
    res = await xrpc(who.pds, "com.atproto.server.createSession", { json: { identifier: who.did, password }, guarded: true });
  } catch (e) {
    if (e instanceof PublishError) throw cannot(`${NET} could not be reached: ${e.message}`, "Try again in a moment.");
    throw e;
  }
  const answer = (await res.json().catch(() => null)) as SessionAnswer | null;
  if (!res.ok || !complete(answer)) {
    const { error, message } = await xrpcError(res);
    if (res.status === 401) throw cannot(`${NET} refused the handle or the app password (${error}).`);
    if (error === "AuthFactorTokenRequired")
      throw cannot(
        `${NET} asks for a code sent by e-mail: that is the account's own password.`,
        "Use an app password (Bluesky: Settings > Privacy and security > App passwords).",
      );
    if (res.status === 429) throw cannot(`${NET} is refusing sign-ins from this service for now (429).`, "Try again later.");
    throw cannot(`${NET} did not sign in (${res.status} ${error}${message ? `: ${message}` : ""}).`);
  }
  const t = tokensOf(answer);
  if (!APP_PASSWORD_SCOPES.has(claims(t.access_token).scope ?? "")) {
    // Full access to the account (its e-mail, password, app passwords): not kept, and ended now.
    await endSession(who.pds, t.refresh_token!);
    throw invalid([
      {
        path: "password",
        message: "That is the account's own password. Create an app password in Bluesky (Settings > Privacy and security > App passwords) and use it here",
      },
    ]);
  }
  if (answer.did !== who.did) throw cannot(`${NET} signed in a different account (${answer.did}) than @${handle} (${who.did}).`);
  return {
    accountId: who.did,
    handle: typeof answer.handle === "string" ? answer.handle.toLowerCase() : who.handle,
    serviceUrl: who.pds,
    access_token: t.access_token,
    refresh_token: t.refresh_token!,
    expires_at: t.expires_at,
  };
}

/**
 * Ends a session (com.atproto.server.deleteSession with the refresh JWT as the bearer): its
 * tokens stop working on the PDS. Best effort: a PDS that cannot be reached keeps nothing the
 * service still holds, and the tokens expire by themselves.
 */
export async function endSession(pds: string, refreshToken: string): Promise<void> {
  await xrpc(pds, "com.atproto.server.deleteSession", { procedure: true, token: refreshToken, guarded: true }).catch(() => null);
}

/**
 * Renews a session (com.atproto.server.refreshSession with the refresh JWT as the bearer):
 * the new pair replaces the old one. A refresh token the PDS no longer takes (expired,
 * revoked with its app password) means the owner must connect again.
 */
export function refresher(pds: string): Refresher {
  return async (refreshToken) => {
    const res = await xrpc(pds, "com.atproto.server.refreshSession", { procedure: true, token: refreshToken, guarded: true }).catch((e) => {
      throw e instanceof PublishError && e.kind !== "failed" ? new PublishError("retry", `Renewing the ${NET} session failed: ${e.message}`) : e;
    });
    const answer = (await res.json().catch(() => null)) as SessionAnswer | null;
    if (res.ok && complete(answer)) return tokensOf(answer);
    const { error, message } = await xrpcError(res);
    if (res.status === 400 || res.status === 401)
      throw new PublishError(
        "failed",
        `${NET} refused to renew the session (${error}${message ? `: ${message}` : ""}); the owner must connect ${NET} again in Settings > Connections.`,
      );
    throw new PublishError("retry", `${NET} session renewal failed (${res.status} ${error}).`);
  };
}
