import { and, asc, eq, gte } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { connectedAccount, PROVIDER, realConfigured } from "@/lib/platforms";
import { platformOf, type PlatformName } from "@/lib/platforms/types";
import type { Ctx } from "./context";
import { draftTable, type DraftType } from "./drafts";

// How long each LinkedIn/X connection can still publish. An access token with a refresh
// token renews itself; one without (LinkedIn gives most apps none) stops at its expiry, and
// only the owner signing in with the network again renews it.

export const WARN_BEFORE_MS = 7 * 86400_000;
const NETWORK: Record<PlatformName, string> = { pronet: "LinkedIn", micro: "X" };

/** The end of a connection's ability to publish, or null when none is known. */
export function publishableUntil(acc: { expires_at: number | null; refresh_token: string | null }): Date | null {
  if (acc.refresh_token || acc.expires_at === null) return null;
  return new Date(acc.expires_at * 1000);
}

/** Settings > Connections: each connected account's expiry, and what is at risk from 7 days before. */
export async function accountHealth(db: Db, userId: string, now = new Date()) {
  const out = [];
  for (const platform of ["pronet", "micro"] as const) {
    const acc = await connectedAccount(db, userId, platform);
    if (!acc) continue;
    const until = publishableUntil(acc);
    const type: DraftType = platform === "pronet" ? "post" : "tweet";
    const t = draftTable(type);
    // Posts scheduled for when the connection can no longer publish would fail.
    const atRisk = until
      ? await db
          .select({ id: t.id, title: t.title, scheduledFor: t.scheduledFor })
          .from(t)
          .where(and(eq(t.userId, userId), eq(t.status, "scheduled"), gte(t.scheduledFor, until)))
          .orderBy(asc(t.scheduledFor))
          .limit(50)
      : [];
    out.push({
      provider: PROVIDER[platform],
      type,
      expiresAt: acc.expires_at === null ? null : new Date(acc.expires_at * 1000),
      canRefresh: !!acc.refresh_token,
      until,
      expiring: !!until && until.getTime() - now.getTime() <= WARN_BEFORE_MS,
      atRisk: atRisk.map((r) => ({ ...r, scheduledFor: r.scheduledFor! })),
    });
  }
  return out;
}

/** schedule_content: a time after which the connection can no longer publish is refused. */
export async function requirePublishableAt(ctx: Ctx, type: DraftType, at: Date) {
  const platform = platformOf(type);
  if (!realConfigured(platform)) return; // the sandbox never expires
  const acc = await connectedAccount(ctx.db, ctx.caller.userId, platform);
  const until = acc && publishableUntil(acc);
  if (!until || at.getTime() < until.getTime()) return;
  const name = NETWORK[platform];
  throw new AppError(
    "action_failed",
    `The ${name} connection can publish only until ${until.toISOString()}: its access expires then and cannot renew itself, so nothing could be posted at ${at.toISOString()}.`,
    `The account owner can reconnect ${name} in Settings > Connections (signing in with ${name} again renews it), then schedule again; or choose a time before ${until.toISOString()}.`,
  );
}
