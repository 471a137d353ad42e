import { and, eq, gt, gte, isNull } from "drizzle-orm";
import { db, type Db } from "@/lib/adapters/db";
import { hashToken, issueToken, revokeApp } from "@/lib/domain/apps/tokens";
import { authorizationCodes, connectedApps, tokens } from "@/drizzle/schema";
import { s256 } from "./authorize";
import { authenticateClient } from "./client-auth";
import { OAuthError } from "./errors";
import { ACCESS_TTL_SECONDS, parseResources, parseScopes, REFRESH_GRACE_MS, REFRESH_TTL_SECONDS } from "./params";

type Client = Awaited<ReturnType<typeof authenticateClient>>;
const grantError = (d: string) => new OAuthError("invalid_grant", d);
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function need(form: URLSearchParams, key: string): string {
  const v = form.get(key);
  if (!v) throw new OAuthError("invalid_request", `${key} is required.`);
  return v;
}

/** A narrower audience on request (RFC 8707), never a wider one. */
function narrowAudience(form: URLSearchParams, granted: string[]): string[] {
  const asked = form.getAll("resource");
  if (!asked.length) return granted;
  const wanted = parseResources(asked);
  if (wanted.some((r) => !granted.includes(r))) throw new OAuthError("invalid_target", "resource was not part of this grant.");
  return wanted;
}

async function issuePair(d: Db, g: { appId: string; userId: string; scopes: string[]; audience: string[]; codeId: string | null; refresh: boolean }) {
  const access = await issueToken(d, { kind: "access", ttlSeconds: ACCESS_TTL_SECONDS, ...g });
  const refresh = g.refresh ? await issueToken(d, { kind: "refresh", ttlSeconds: REFRESH_TTL_SECONDS, ...g }) : null;
  return {
    access_token: access.token,
    token_type: "Bearer",
    expires_in: ACCESS_TTL_SECONDS,
    scope: g.scopes.join(" "),
    ...(refresh && { refresh_token: refresh.token }),
  };
}

const wantsRefresh = (client: Client, scopes: string[]) =>
  scopes.includes("offline_access") && ((client.metadata.grant_types as string[] | undefined)?.includes("refresh_token") ?? true);

export async function exchangeCode(client: Client, form: URLSearchParams) {
  const code = need(form, "code");
  const redirectUri = need(form, "redirect_uri");
  const verifier = need(form, "code_verifier");
  // One transaction holding the code's row: a second use waits for the first to finish, then
  // finds the code spent and revokes everything it issued (nothing can be issued after that).
  // Refusals are returned, not thrown, so that the claim and the revocation are committed.
  const outcome = await (await db()).transaction((tx) => redeemCode(tx, client, form, { code, redirectUri, verifier }));
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

async function redeemCode(tx: Db, client: Client, form: URLSearchParams, asked: { code: string; redirectUri: string; verifier: string }) {
  const [row] = await tx
    .select()
    .from(authorizationCodes)
    .where(eq(authorizationCodes.codeHash, hashToken(asked.code)))
    .for("update");
  if (!row || row.clientId !== client.id) return grantError("The authorization code is not valid.");
  if (row.usedAt) {
    await tx
      .update(tokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(tokens.codeId, row.id), isNull(tokens.revokedAt)));
    return grantError("The authorization code was already used; the tokens issued from it are revoked.");
  }
  // Spent by any attempt of its client, even one refused below.
  await tx.update(authorizationCodes).set({ usedAt: new Date() }).where(eq(authorizationCodes.id, row.id));
  if (row.expiresAt <= new Date()) return grantError("The authorization code has expired.");
  if (asked.redirectUri !== row.redirectUri) return grantError("redirect_uri does not match the authorization request.");
  if (!VERIFIER.test(asked.verifier) || s256(asked.verifier) !== row.codeChallenge) return grantError("code_verifier does not match the code challenge.");
  const [app] = await tx.select({ revokedAt: connectedApps.revokedAt }).from(connectedApps).where(eq(connectedApps.id, row.appId));
  if (!app || app.revokedAt) return grantError("The app was disconnected.");
  let audience: string[];
  try {
    audience = narrowAudience(form, row.audience);
  } catch (e) {
    if (e instanceof OAuthError) return e;
    throw e;
  }
  return issuePair(tx, { appId: row.appId, userId: row.userId, scopes: row.scopes, audience, codeId: row.id, refresh: wantsRefresh(client, row.scopes) });
}

export async function refresh(client: Client, form: URLSearchParams) {
  const presented = need(form, "refresh_token");
  const d = await db();
  const [row] = await d
    .select({ token: tokens, clientId: connectedApps.clientId, appRevokedAt: connectedApps.revokedAt })
    .from(tokens)
    .innerJoin(connectedApps, eq(connectedApps.id, tokens.appId))
    .where(and(eq(tokens.tokenHash, hashToken(presented)), eq(tokens.kind, "refresh")));
  if (!row || row.clientId !== client.id) throw grantError("The refresh token is not valid.");
  const t = row.token;
  if (t.revokedAt || row.appRevokedAt) throw grantError("The refresh token was revoked.");
  if (t.expiresAt <= new Date()) throw grantError("The refresh token has expired.");
  const scopes = form.get("scope") === null ? t.scopes : parseScopes(form.get("scope"));
  if (!scopes || scopes.some((s) => !t.scopes.includes(s))) throw new OAuthError("invalid_scope", "A refresh can narrow the scope, never widen it.");
  const audience = narrowAudience(form, t.audience);
  const now = new Date();
  const rotated = await d
    .update(tokens)
    .set({ rotatedAt: now })
    .where(and(eq(tokens.id, t.id), isNull(tokens.rotatedAt)))
    .returning({ id: tokens.id });
  if (!rotated.length) {
    // Already rotated: one more use within the grace window is a client retrying (its answer
    // was lost, or two of its requests crossed); later, or more than once, it is a stolen
    // token being replayed (each use would start a chain of its own), so the whole grant goes.
    const [fresh] = await d
      .select({ rotatedAt: tokens.rotatedAt })
      .from(tokens)
      .where(and(eq(tokens.id, t.id), gt(tokens.rotatedAt, new Date(now.getTime() - REFRESH_GRACE_MS))));
    if (!fresh || (await refreshesSince(d, t, fresh.rotatedAt!)) > 1) {
      await revokeApp(d, t.userId, t.appId, now);
      throw grantError("The refresh token was already used; the app's access is revoked. Connect it again.");
    }
  }
  // A refresh that narrows the scope past offline_access asked to stop refreshing.
  return issuePair(d, { appId: t.appId, userId: t.userId, scopes, audience, codeId: t.codeId, refresh: scopes.includes("offline_access") });
}

/** Refresh tokens of the grant issued since `t` was rotated (at `at`): its successor, and one per use of it since. */
async function refreshesSince(d: Db, t: typeof tokens.$inferSelect, at: Date): Promise<number> {
  const rows = await d
    .select({ id: tokens.id })
    .from(tokens)
    .where(
      and(eq(tokens.appId, t.appId), eq(tokens.kind, "refresh"), t.codeId ? eq(tokens.codeId, t.codeId) : isNull(tokens.codeId), gte(tokens.createdAt, at)),
    )
    .limit(3);
  return rows.length;
}

/** RFC 7009: 200 whatever the token; a refresh token takes its whole grant with it. */
export async function revoke(client: Client, form: URLSearchParams) {
  const token = need(form, "token");
  const d = await db();
  const [row] = await d
    .select({ id: tokens.id, kind: tokens.kind, appId: tokens.appId, userId: tokens.userId, clientId: connectedApps.clientId })
    .from(tokens)
    .innerJoin(connectedApps, eq(connectedApps.id, tokens.appId))
    .where(eq(tokens.tokenHash, hashToken(token)));
  if (!row || row.clientId !== client.id) return;
  if (row.kind === "refresh") await revokeApp(d, row.userId, row.appId);
  else await d.update(tokens).set({ revokedAt: new Date() }).where(eq(tokens.id, row.id));
}
