import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { approvals, authAccounts, connectedApps, oauthClients, tokens, tweetDrafts, users } from "@/drizzle/schema";
import { isUuid } from "@/lib/core/ids";
import { redirectHost as redirectOf } from "@/lib/domain/apps/redirect-uris";
import { NETWORKS, type ConnectionState, type Provider } from "@/lib/domain/networks";
import { listAccounts } from "./accounts";

// What Settings > Connections and the approval page read and change. Every query is scoped
// by the owner's id: another user's app or approval looks exactly like a missing one.

const HOSTS_NAMED = 3;

/**
 * Where an app may send people back to: every host among its redirect URIs (the app chose
 * them all, and may use any; naming only the first would let it stand behind a well-known
 * one), or null.
 */
export function redirectHost(uris: string[]): string | null {
  const hosts = [...new Set(uris.map(redirectOf))];
  if (!hosts.length) return null;
  const more = hosts.length - HOSTS_NAMED;
  return hosts.slice(0, HOSTS_NAMED).join(", ") + (more > 0 ? ` and ${more} more` : "");
}

export async function listConnectedApps(db: Db, userId: string) {
  const rows = await db
    .select({
      id: connectedApps.id,
      scopes: connectedApps.scopes,
      createdAt: connectedApps.createdAt,
      lastUsedAt: connectedApps.lastUsedAt,
      trustsForms: connectedApps.trustsForms,
      name: oauthClients.name,
      selfRegistered: oauthClients.selfRegistered,
      redirectUris: oauthClients.redirectUris,
      // A personal token's app has one long-lived token, whose end the owner needs to know; an
      // OAuth app's tokens are short-lived and renewed, so their ends say nothing.
      tokenExpiresAt: sql<Date | null>`(select max(${tokens.expiresAt}) from ${tokens}
        where ${tokens.appId} = ${connectedApps.id} and ${tokens.kind} = 'access' and ${tokens.revokedAt} is null)`.mapWith(tokens.expiresAt),
    })
    .from(connectedApps)
    .innerJoin(oauthClients, eq(oauthClients.id, connectedApps.clientId))
    .where(and(eq(connectedApps.userId, userId), isNull(connectedApps.revokedAt)))
    .orderBy(desc(connectedApps.createdAt));
  // Only personal tokens (the command line's, Settings' own) are not self-registered.
  return rows.map((r) => ({ ...r, personal: !r.selfRegistered, redirectHost: redirectHost(r.redirectUris) }));
}

/** "Let {app} confirm actions in its own window": only the owner, only their own app. */
export async function setAppTrustsForms(db: Db, userId: string, appId: string, trusted: boolean): Promise<boolean> {
  if (!isUuid(appId)) return false;
  const rows = await db
    .update(connectedApps)
    .set({ trustsForms: trusted })
    .where(and(eq(connectedApps.id, appId), eq(connectedApps.userId, userId), isNull(connectedApps.revokedAt)))
    .returning({ id: connectedApps.id });
  return rows.length > 0;
}

export async function setPublishingAllowed(db: Db, userId: string, allowed: boolean) {
  const now = new Date();
  await db.update(users).set({ publishingAllowed: allowed, updatedAt: now }).where(eq(users.id, userId));
  // Off: the apps' open approvals end with it, as on a disconnect. A page left open cannot
  // approve them, and a call or task still waiting on one is refused.
  if (!allowed) {
    await db
      .update(approvals)
      .set({ status: "denied", decidedAt: now })
      .where(and(eq(approvals.userId, userId), inArray(approvals.status, ["pending", "approved"])));
  }
}

export type PlatformState = { provider: Provider; state: ConnectionState["state"]; handle: string | null };

/** Each network's default account (X and Bluesky share one: the other has none), as pages that name where a draft goes show it. */
export async function platformAccounts(db: Db, userId: string, now = new Date()): Promise<PlatformState[]> {
  const accounts = await listAccounts(db, userId, now);
  return NETWORKS.map(({ provider, id }) => {
    const a = accounts.find((x) => x.network === id && x.default);
    return { provider, state: a?.state ?? "not_connected", handle: a?.handle ?? null };
  });
}

// An app names itself, and a self-described one may rename itself at any time: wherever an
// approval is shown, beside the name goes where the app comes from (its metadata document's
// host, or where it sends people back), which the app cannot change, as the consent page did.
export const askingApp = {
  appName: oauthClients.name,
  selfRegistered: oauthClients.selfRegistered,
  metadataUrl: oauthClients.metadataUrl,
  redirectUris: oauthClients.redirectUris,
};
export function withAppFrom<T extends { metadataUrl: string | null; redirectUris: string[] }>(row: T) {
  const { metadataUrl, redirectUris, ...rest } = row;
  return { ...rest, appFrom: metadataUrl ? new URL(metadataUrl).host : redirectHost(redirectUris) };
}

/** The owner's requests still waiting for a decision: pending, not yet expired. */
export const waitingRequests = (userId: string, now: Date) => and(eq(approvals.userId, userId), eq(approvals.status, "pending"), gt(approvals.expiresAt, now));

/** The owner's requests waiting for a decision, soonest to expire first, with the asking app. */
export async function pendingApprovals(db: Db, userId: string, now = new Date()) {
  const rows = await db
    .select({ id: approvals.id, operation: approvals.operation, action: approvals.action, expiresAt: approvals.expiresAt, ...askingApp })
    .from(approvals)
    .innerJoin(connectedApps, eq(connectedApps.id, approvals.appId))
    .innerJoin(oauthClients, eq(oauthClients.id, connectedApps.clientId))
    .where(waitingRequests(userId, now))
    .orderBy(asc(approvals.expiresAt));
  return rows.map(withAppFrom);
}

/** What an approval page or the inbox shows of a request: its action and the content it acts on. */
export const approvalShown = {
  id: approvals.id,
  operation: approvals.operation,
  action: approvals.action,
  body: approvals.body,
  imageUrl: approvals.imageUrl,
  attachments: approvals.attachments,
  proposed: approvals.proposed,
};

/** An owner's requests as their pages show and decide them, with the asking app (to be scoped by the caller: `.where`). */
export const requestsOfOwner = (db: Db) =>
  db
    .select({
      ...approvalShown,
      // What its page says it showed when it decides (decisionHash).
      argsHash: approvals.argsHash,
      contentHash: approvals.contentHash,
      status: approvals.status,
      expiresAt: approvals.expiresAt,
      decidedAt: approvals.decidedAt,
      createdAt: approvals.createdAt,
      appRevoked: connectedApps.revokedAt,
      ...askingApp,
    })
    .from(approvals)
    .innerJoin(connectedApps, eq(connectedApps.id, approvals.appId))
    .innerJoin(oauthClients, eq(oauthClients.id, connectedApps.clientId));

/** One approval of the owner's, with the asking app's name; undefined when not theirs. */
export async function approvalForOwner(db: Db, userId: string, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await requestsOfOwner(db).where(and(eq(approvals.id, id), eq(approvals.userId, userId)));
  if (!row) return undefined;
  return { ...withAppFrom(row), tweets: await tweetsDeletedWith(db, userId, row.action) };
}

/**
 * Deleting a post deletes its tweets with it: what an approval of that shows, as they are now
 * (the approval is bound to the ones there were when it was asked for: drafts.ts).
 */
export async function tweetsDeletedWith(db: Db, userId: string, action: { operation: string; type: string; id: string }) {
  if (action.operation !== "delete_draft" || action.type !== "post" || !isUuid(action.id)) return [];
  return db
    .select({ body: tweetDrafts.body, status: tweetDrafts.status })
    .from(tweetDrafts)
    .where(and(eq(tweetDrafts.postDraftId, action.id), eq(tweetDrafts.userId, userId)))
    .orderBy(asc(tweetDrafts.createdAt));
}
