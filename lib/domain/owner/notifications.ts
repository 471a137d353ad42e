import { and, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { NETWORK_NAMES } from "@/lib/domain/networks";
import { describeDestination, networkOf } from "@/lib/domain/networks/destination";
import {
  approvals,
  authAccounts,
  connectedApps,
  draftEvents,
  notificationSettings,
  notificationsSent,
  oauthClients,
  users,
  webhookEndpoints,
  type NotificationKind,
} from "@/drizzle/schema";
import { draftTable, type DraftType } from "../drafts/drafts";
import type { Mail, Ports } from "../ports";

// E-mails to the owner when mail is set up (the mail port: SMTP_URL): a post failed, a post's outcome is unknown, a
// published post its network no longer has (a receipt), an
// app asks for approval, a connection that cannot renew itself expires within 7 days. A
// sweep finds the events (so sweeps, retries and several processes all count) and a row of
// notifications_sent per event makes each go out once.

/** What the sweeps use: the origin for links, whether the sandbox stands in, and mail. */
export type NotifyPorts = Pick<Ports, "config" | "platforms" | "mail">;
export type Settings = Record<NotificationKind, boolean>;
export const KINDS: NotificationKind[] = ["failed", "unknown", "approval", "expiring"];

const DAY_MS = 86400_000;
const OP: Record<string, string> = { publish_now: "publish", schedule_content: "schedule", delete_draft: "delete", update_draft: "edit" };

const when = (d: Date, timeZone: string) => new Intl.DateTimeFormat("en-GB", { timeZone, dateStyle: "full", timeStyle: "short" }).format(d) + ` (${timeZone})`;

export async function notificationSettingsOf(db: Db, userId: string): Promise<Settings> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return { failed: row?.failed ?? true, unknown: row?.unknown ?? true, approval: row?.approval ?? true, expiring: row?.expiring ?? true };
}

export async function setNotificationSettings(db: Db, userId: string, s: Settings) {
  await db
    .insert(notificationSettings)
    .values({ userId, ...s })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { ...s, updatedAt: new Date() } });
}

type Event = { userId: string; kind: NotificationKind; key: string; mail: (u: { timezone: string }) => Omit<Mail, "to"> };

async function findEvents(db: Db, p: NotifyPorts, now: Date): Promise<Event[]> {
  const origin = p.config().origin;
  const destination = (type: DraftType, network?: string) => describeDestination(type, !p.platforms.configured(networkOf(type, network).id), null, network);
  const out: Event[] = [];
  const since = new Date(now.getTime() - DAY_MS);
  for (const type of ["post", "tweet"] as DraftType[]) {
    const t = draftTable(type);
    // Each publish outcome is an event in the draft's history (the scheduler's, Inngest's,
    // publish_now's and the sweeps'); one mail per such event while the draft is still in it.
    const rows = await db
      .select({ id: t.id, userId: t.userId, title: t.title, status: t.status, reason: t.failureReason, eventId: draftEvents.id })
      .from(draftEvents)
      .innerJoin(t, and(eq(t.id, draftEvents.draftId), eq(draftEvents.draftType, type)))
      .where(and(inArray(draftEvents.kind, ["failed", "unknown", "removed"]), eq(sql`${draftEvents.kind}`, sql`${t.status}`), gt(draftEvents.createdAt, since)))
      .limit(500);
    for (const r of rows) {
      // The owner saying "it did not go out" is not news to the owner.
      if (r.status === "failed" && r.reason?.startsWith("you checked")) continue;
      const link = `${origin}/content/${type}/${r.id}`;
      const dest = destination(type);
      // A post its network dropped after publishing it comes under the "failed" setting: it is not up.
      out.push({
        userId: r.userId,
        kind: r.status === "unknown" ? "unknown" : "failed",
        key: `${r.status}:${type}:${r.id}:${r.eventId}`,
        mail: () =>
          r.status === "removed"
            ? {
                subject: `A ${type} was removed from ${dest.name} after it was published: ${r.title}`,
                text:
                  `“${r.title}” was published ${dest.where}, but when Contentio read it back: ${r.reason ?? "it was gone"}\n\n` +
                  `It is not posted again on its own. To post it again, create a new draft from it:\n${link}\n`,
              }
            : r.status === "failed"
              ? {
                  subject: `A ${type} failed to publish ${dest.where}: ${r.title}`,
                  text:
                    `“${r.title}” was not published to ${dest.name}.\n\nReason: ${r.reason ?? "none recorded"}\n\nNothing ` +
                    `was posted. You can fix it and publish it again here:\n${link}\n`,
                }
              : {
                  subject: `Did your ${type} go out ${dest.where}? ${r.title}`,
                  text:
                    `“${r.title}” was not confirmed ${dest.where}: ${r.reason ?? "no answer"}\n\nIt may or may not be live, and it ` +
                    `will not be posted again on its own. Look for it ${dest.where}, then tell Contentio what you found:\n${link}\n`,
                },
      });
    }
  }
  const asks = await db
    .select({
      id: approvals.id,
      userId: approvals.userId,
      operation: approvals.operation,
      action: approvals.action,
      expiresAt: approvals.expiresAt,
      app: oauthClients.name,
    })
    .from(approvals)
    .innerJoin(connectedApps, eq(connectedApps.id, approvals.appId))
    .innerJoin(oauthClients, eq(oauthClients.id, connectedApps.clientId))
    .where(and(eq(approvals.status, "pending"), gt(approvals.expiresAt, now)))
    .limit(500);
  for (const a of asks) {
    const link = `${origin}/confirm/${a.id}`;
    const where = a.action.type === "post" || a.action.type === "tweet" ? ` ${destination(a.action.type, a.action.account?.network).where}` : "";
    out.push({
      userId: a.userId,
      kind: "approval",
      key: `approval:${a.id}`,
      mail: (u) => ({
        subject: `${a.app} asks for your approval: ${OP[a.operation] ?? a.operation} “${a.action.title}”`,
        text:
          `${a.app} wants to ${OP[a.operation] ?? a.operation} the ${a.action.type} ` +
          `“${a.action.title}”${where}${a.action.scheduled_for ? ` at ${when(new Date(a.action.scheduled_for), u.timezone)}` : ""}.\n\nApprove ` +
          `or deny it here (the request expires ${when(a.expiresAt, u.timezone)}):\n${link}\n`,
      }),
    });
  }
  const nowS = Math.floor(now.getTime() / 1000);
  const expiring = await db
    .select({ userId: authAccounts.userId, provider: authAccounts.provider, expiresAt: authAccounts.expires_at })
    .from(authAccounts)
    .where(and(isNull(authAccounts.refresh_token), gt(authAccounts.expires_at, nowS), lte(authAccounts.expires_at, nowS + 7 * 86400)))
    .limit(500);
  for (const e of expiring) {
    const net = NETWORK_NAMES[e.provider] ?? e.provider;
    out.push({
      userId: e.userId,
      kind: "expiring",
      key: `expiring:${e.provider}:${e.expiresAt}`,
      mail: (u) => ({
        subject:
          `Your ${net} connection expires ` +
          `${new Intl.DateTimeFormat("en-GB", { timeZone: u.timezone, dateStyle: "medium" }).format(new Date(e.expiresAt! * 1000))}`,
        text:
          `Contentio can publish to ${net} only until ${when(new Date(e.expiresAt! * 1000), u.timezone)}: the access ${net} gave cannot renew itself. ` +
          `Anything scheduled after that will fail.\n\nReconnect ${net} in Settings > Connections to keep publishing:\n${origin}/settings/connections\n`,
      }),
    });
  }
  // A webhook endpoint the service paused after 3 days of failed deliveries (under the
  // "failed" setting: something the owner set up stopped receiving).
  const paused = await db
    .select({
      id: webhookEndpoints.id,
      userId: webhookEndpoints.userId,
      url: webhookEndpoints.url,
      reason: webhookEndpoints.pausedReason,
      at: webhookEndpoints.updatedAt,
    })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.status, "paused"), isNotNull(webhookEndpoints.pausedReason), gt(webhookEndpoints.updatedAt, since)))
    .limit(500);
  for (const w of paused) {
    out.push({
      userId: w.userId,
      kind: "failed",
      key: `webhook-paused:${w.id}:${w.at.getTime()}`,
      mail: () => ({
        subject: `Webhooks to ${new URL(w.url).host} are paused`,
        text:
          `Contentio stopped sending webhooks to ${w.url}: ${w.reason}\n\nEvents from now on are not sent to it. When the endpoint works ` +
          `again, resume it in Settings > Webhooks (you can resend what it missed from its delivery log):\n${origin}/settings/webhooks\n`,
      }),
    });
  }
  return out;
}

/** One sweep: finds new events, claims each once, e-mails the owner (the mail port). Never throws. */
export async function notifyOwners(db: Db, p: NotifyPorts, now = new Date()): Promise<number> {
  if (!p.mail.configured()) return 0;
  let sent = 0;
  try {
    const events = await findEvents(db, p, now);
    if (!events.length) return 0;
    const ids = [...new Set(events.map((e) => e.userId))];
    const people = await db
      .select({ id: users.id, email: users.email, timezone: users.timezone, s: notificationSettings })
      .from(users)
      .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
      .where(inArray(users.id, ids));
    const who = new Map(people.map((p) => [p.id, p]));
    for (const e of events) {
      const u = who.get(e.userId);
      if (!u || (u.s && !u.s[e.kind])) continue;
      // Claim the event: only the process whose insert lands sends it.
      const claimed = await db
        .insert(notificationsSent)
        .values({ userId: e.userId, eventKey: e.key, kind: e.kind })
        .onConflictDoNothing()
        .returning({ k: notificationsSent.eventKey });
      if (!claimed.length) continue;
      try {
        await p.mail.send({ to: u.email, ...e.mail(u) });
        sent++;
      } catch (err) {
        // Not sent: forget the claim so a later sweep tries again.
        await db.delete(notificationsSent).where(and(eq(notificationsSent.userId, e.userId), eq(notificationsSent.eventKey, e.key)));
        log("warn", "notification not sent", { kind: e.kind, ...errorFacts(err) });
      }
    }
  } catch (err) {
    log("error", "notification sweep failed", errorFacts(err));
  }
  return sent;
}

const NOTIFY_EVERY_MS = 5000;
let last = 0;
/** From the publishing engines' passes: at most one sweep every few seconds per process. */
export async function notifyOwnersSometimes(db: Db, p: NotifyPorts) {
  if (!p.mail.configured() || Date.now() - last < NOTIFY_EVERY_MS) return;
  last = Date.now();
  await notifyOwners(db, p);
}
