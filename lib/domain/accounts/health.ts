import { and, asc, eq, gte } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { connectionProblemOf, connectionState, networkFor, networkNamed, networkOfDraft, type PlatformName } from "@/lib/domain/networks";
import { goingTo, listAccounts } from "./accounts";
import { missingScopes } from "@/lib/domain/networks/scopes";
import type { Ctx } from "../context";
import type { Ports, StoredConnection } from "../ports";
import { draftTable, type DraftType } from "../drafts/drafts";

// How long each network connection can still publish (connectionState: LinkedIn gives
// most apps no refresh token, so their access stops at its expiry), which permissions it
// lacks, and how many posts the network still takes today.

export const WARN_BEFORE_MS = 7 * 86400_000;

/**
 * Settings > Connections: each account's expiry (of the connection it posts with), what is at
 * risk from 7 days before, and any notice publishing left about the connection.
 */
export async function accountHealth(db: Db, userId: string, p: Pick<Ports, "platforms">, now = new Date()) {
  const out = [];
  for (const account of await listAccounts(db, userId, now)) {
    if (account.sandbox) continue; // nothing expires or lacks a permission in the sandbox
    const { id, platform, draftType: type, provider } = networkNamed(account.network);
    const acc = await p.platforms.connection(db, userId, platform, account.account_id);
    if (!acc) continue;
    const { until } = connectionState(acc, now);
    const t = draftTable(type);
    // Posts scheduled to this account for when its connection can no longer publish would fail.
    const mine = goingTo(t, { id: account.account_id, isDefault: account.default });
    const atRisk = until
      ? await db
          .select({ id: t.id, title: t.title, scheduledFor: t.scheduledFor })
          .from(t)
          .where(and(eq(t.userId, userId), eq(t.status, "scheduled"), gte(t.scheduledFor, until), mine))
          .orderBy(asc(t.scheduledFor))
          .limit(50)
      : [];
    out.push({
      accountId: account.account_id,
      provider,
      type,
      // Permissions the connection lacks, and what reconnecting would let it post.
      missing: missingScopes(id, acc.scope, ["text", "media"]),
      toPost: missingScopes(id, acc.scope, ["text"]).length
        ? "at all"
        : missingScopes(id, acc.scope, ["media"]).length
          ? type === "tweet"
            ? "images"
            : "images or documents"
          : null,
      // What the network last said of its daily cap, while that day lasts.
      allowance: acc.postAllowance && Date.parse(acc.postAllowance.resetsAt) > now.getTime() ? acc.postAllowance : null,
      expiresAt: acc.expires_at === null ? null : new Date(acc.expires_at * 1000),
      canRefresh: !!acc.refresh_token,
      until,
      expiring: !!until && until.getTime() - now.getTime() <= WARN_BEFORE_MS,
      atRisk: atRisk.map((r) => ({ ...r, scheduledFor: r.scheduledFor! })),
      // What publishing learned about the connection that the owner should act on (e.g. a
      // LINKEDIN_VERSION that LinkedIn has retired); cleared when it no longer holds.
      notice: acc.notice,
    });
  }
  return out;
}

/**
 * Why the caller cannot publish a draft of this platform right now, or null. The network is
 * the connection's (else the platform's first); the sandbox stands in for a network without
 * its app credentials; a real network needs a connection that can publish (`known`: one
 * already read, of the account the draft goes to).
 */
export async function publishingProblem(ctx: Ctx, platform: PlatformName, known?: StoredConnection | null): Promise<string | null> {
  const { platforms } = ctx.ports;
  const acc = known !== undefined ? known : await platforms.connection(ctx.db, ctx.caller.userId, platform);
  const net = networkFor(platform, acc);
  return platforms.configured(net.id) ? connectionProblemOf(net, acc, ctx.now()) : null;
}

/** schedule_content: a time after which the connection (of the account the draft goes to) can no longer publish is refused. */
export function requirePublishableAt(ctx: Ctx, type: DraftType, at: Date, connection: StoredConnection | null) {
  const { name, id } = networkFor(networkOfDraft(type).platform, connection);
  if (!ctx.ports.platforms.configured(id)) return; // the sandbox never expires
  const { until } = connectionState(connection, ctx.now());
  if (!until || at.getTime() < until.getTime()) return;
  throw new AppError(
    "action_failed",
    `The ${name} connection can publish only until ${until.toISOString()}: its access ` +
      `expires then and cannot renew itself, so nothing could be posted at ${at.toISOString()}.`,
    `The account owner can reconnect ${name} in Settings > Connections (signing in with ${name} ` +
      `again renews it), then schedule again; or choose a time before ${until.toISOString()}.`,
  );
}
