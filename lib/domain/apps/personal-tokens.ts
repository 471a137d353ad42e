import type { Db } from "@/lib/adapters/db";
import { connectedApps, oauthClients } from "@/drizzle/schema";
import { issueToken } from "./tokens";

// A personal token: a connected app of the owner's own (no OAuth client behind it, so it is
// never "Unverified") holding one access token. The command line (`issue-token`) and Settings >
// Connections both make them here; it is listed, and revoked, like any other connected app.

export const PERSONAL_TOKEN_DAYS = 30;
/** The lifetimes, in days, that Settings > Connections offers (the command line takes any). */
export const PERSONAL_TOKEN_CHOICES = [7, PERSONAL_TOKEN_DAYS, 90, 365] as const;

export type PersonalToken = { access_token: string; token_type: "Bearer"; expires_in: number; expires_at: Date; app_id: string };

export async function issuePersonalToken(
  db: Db,
  userId: string,
  opts: { appName?: string; scopes?: string[]; expiresIn?: number; audience: string[]; now?: Date },
): Promise<PersonalToken> {
  const scopes = opts.scopes?.length ? opts.scopes : ["email"];
  const ttl = opts.expiresIn ?? PERSONAL_TOKEN_DAYS * 24 * 3600;
  // One transaction: an app row without its token would be listed but could never be used.
  return db.transaction(async (tx) => {
    const [client] = await tx
      .insert(oauthClients)
      .values({ name: opts.appName ?? "Command line", selfRegistered: false, tokenEndpointAuthMethod: "none" })
      .returning({ id: oauthClients.id });
    const [app] = await tx.insert(connectedApps).values({ userId, clientId: client.id, scopes }).returning({ id: connectedApps.id });
    const { token, expiresAt } = await issueToken(tx, {
      kind: "access",
      appId: app.id,
      userId,
      scopes,
      audience: opts.audience,
      ttlSeconds: ttl,
      now: opts.now,
    });
    return { access_token: token, token_type: "Bearer" as const, expires_in: ttl, expires_at: expiresAt, app_id: app.id };
  });
}
