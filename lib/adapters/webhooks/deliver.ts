import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { momentOf, rowsOf } from "@/lib/adapters/db/rows";
import { log } from "@/lib/core/log";
import { ports, type Ports } from "@/lib/adapters/ports";
import { errorFacts } from "@/lib/core/redact";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/drizzle/schema";
import { signatureHeader, signingSecrets } from "../../domain/webhooks/signing";

// The deliverer: claims due deliveries, signs and sends them, records each attempt. At least
// once: a delivery is marked delivered only after a 2xx, and a claim is a lease (locked_until)
// that a crashed deliverer's successor waits out, then sends again under the same webhook-id.
// Per endpoint, an event about a draft waits until every earlier event about that draft was
// delivered or given up. Failures retry with exponential backoff and jitter for 3 days; an
// endpoint that has failed for 3 days is paused (the owner is told by e-mail and in Settings).

export const RETRY_FOR_MS = 3 * 86400_000;
/** A claim outlives any send (timeout 10 s by default): only a dead deliverer's claim runs out. */
const leaseMs = (p: Ports) => 3 * p.config().WEBHOOK_TIMEOUT_MS;
/**
 * In flight at once (claimed and not yet recorded, across every deliverer): at most this many
 * deliveries of one endpoint and of one user's endpoints, so a slow or dead endpoint, or one
 * account's many, holds at most two senders and everyone else's deliveries go out beside them.
 */
const PER_ENDPOINT = 1;
const PER_USER = 2;
/** Senders per pass. */
const SENDERS = 8;
/** A pass takes no new delivery after this many, or after PASS_MS, so the loop's other work gets its turn. */
const PASS_MAX = 1000;
const PASS_MS = 60_000;
/** Time a send's outcome may take to be written once its answer came. */
const RECORDING_MS = 1000;
const BASE_MS = 30_000;
const CAP_MS = 6 * 3600_000;

/** 30 s, 1, 2, 4 ... minutes, at most 6 hours apart, each within ±20% so endpoints recovering together are not hit at once. */
export const backoffMs = (attempts: number, random = Math.random) => Math.min(BASE_MS * 2 ** Math.max(0, attempts - 1), CAP_MS) * (0.8 + 0.4 * random());

export type DeliverResult = { delivered: number; retrying: number; failed: number; paused: number };

type Claim = { id: string; event_id: string; endpoint_id: string; attempts: number };

/**
 * Leases up to `limit` due deliveries in one UPDATE: pending, due, not leased, of an active
 * endpoint, with no earlier pending event of the same subject to that endpoint, and only while
 * fewer than PER_ENDPOINT of the endpoint's and PER_USER of the user's deliveries are leased
 * (in flight): leased rows rank first in each window, so a free row's rank counts them too.
 * (Two deliverers claiming at the same instant do not see each other's leases: each keeps
 * the limits.) SKIP LOCKED hands concurrent deliverers disjoint rows. The ids are an array
 * computed once (`= any(array(...))`): as an `in (...)` semi-join, a plan that ran the locking
 * subquery again per candidate row leased more than `limit`.
 */
export async function claim(db: Db, now: Date, limit: number, leaseFor = leaseMs(ports())): Promise<Claim[]> {
  const at = now.toISOString();
  const lease = new Date(now.getTime() + leaseFor).toISOString();
  const res = await db.execute(sql`
    update webhook_deliveries set locked_until = ${lease}::timestamptz
    where id = any(array(
      select id from webhook_deliveries
      where id in (
        select id from (
          select d.id, busy,
            row_number() over (partition by d.endpoint_id order by busy desc, d.next_attempt_at) as nth,
            row_number() over (partition by w.user_id order by busy desc, d.next_attempt_at) as nth_of_user
          from webhook_deliveries d
          cross join lateral (select coalesce(d.locked_until > ${at}::timestamptz, false) as busy) l
          join webhook_events e on e.id = d.event_id
          join webhook_endpoints w on w.id = d.endpoint_id
          where d.status = 'pending' and d.next_attempt_at <= ${at}::timestamptz
            and w.status = 'active'
            and (busy or not exists (
              select 1 from webhook_deliveries d2 join webhook_events e2 on e2.id = d2.event_id
              where e.subject is not null and d2.endpoint_id = d.endpoint_id and d2.status = 'pending'
                and e2.subject = e.subject and (e2.created_at, e2.id) < (e.created_at, e.id)))
        ) due
        where not busy and nth <= ${PER_ENDPOINT} and nth_of_user <= ${PER_USER})
      order by next_attempt_at
      limit ${limit}
      for update skip locked))
    and status = 'pending' and (locked_until is null or locked_until <= ${at}::timestamptz)
    returning id, event_id, endpoint_id, attempts`);
  return rowsOf<Claim>(res);
}

type Pass = { db: Db; p: Ports; clock: () => Date; lease: number; result: DeliverResult; sending: Set<Promise<void>> };

/**
 * One pass: sends everything due now, `concurrency` at a time, and returns what happened. A
 * sender that comes free takes the next due delivery at once (no waiting for the others of a
 * batch); while some are free and others still sending, newly due work is looked for every
 * SCHEDULER_POLL_MS. `clock` decides what is due and when to retry (tests move it).
 */
export async function deliverDue(db: Db, opts: { ports?: Ports; clock?: () => Date; max?: number; concurrency?: number } = {}): Promise<DeliverResult> {
  const p = opts.ports ?? ports();
  const pass: Pass = {
    db,
    p,
    clock: opts.clock ?? p.clock,
    lease: leaseMs(p),
    result: { delivered: 0, retrying: 0, failed: 0, paused: 0 },
    sending: new Set(),
  };
  const concurrency = opts.concurrency ?? SENDERS;
  const max = opts.max ?? PASS_MAX;
  const stopAt = Date.now() + PASS_MS;
  let taken = 0;
  try {
    for (;;) {
      const free = Math.min(concurrency - pass.sending.size, max - taken);
      // A delivered event may release the next event of the same draft, or a sender of its user.
      if (free > 0 && Date.now() < stopAt) taken += await claimAndSend(pass, free);
      if (!pass.sending.size) break;
      const idle = pass.sending.size < concurrency && taken < max && Date.now() < stopAt;
      await Promise.race([...pass.sending, ...(idle ? [pause(p.config().SCHEDULER_POLL_MS)] : [])]);
    }
  } finally {
    // Even when a claim failed (the database is gone, say): the pass ends with its sends, so
    // the next one never runs beside them.
    await Promise.all(pass.sending);
  }
  return pass.result;
}

/** Claims up to `n` deliveries and starts sending each (into `pass.sending`); returns how many it claimed. */
async function claimAndSend(pass: Pass, n: number): Promise<number> {
  const { db, p, clock } = pass;
  const claimedAt = clock();
  const claimed = await claim(db, claimedAt, n, pass.lease);
  if (!claimed.length) return 0;
  // A send starts only while its claim outlasts the longest send: one that could end after
  // the claim ran out might be sent by another deliverer meanwhile. What is left goes back.
  const leaseEnd = new Date(claimedAt.getTime() + pass.lease);
  const events = await db
    .select()
    .from(webhookEvents)
    .where(inArray(webhookEvents.id, [...new Set(claimed.map((c) => c.event_id))]));
  const endpoints = await db
    .select()
    .from(webhookEndpoints)
    .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((c) => c.endpoint_id))]));
  const left: string[] = [];
  for (const c of claimed) {
    if (clock().getTime() + p.config().WEBHOOK_TIMEOUT_MS + RECORDING_MS >= leaseEnd.getTime()) {
      left.push(c.id);
      continue;
    }
    const ev = events.find((e) => e.id === c.event_id);
    const ep = endpoints.find((e) => e.id === c.endpoint_id);
    if (!ev || !ep) continue; // deleted meanwhile: its delivery went with it
    const sending: Promise<void> = sendOne(db, p, clock, c, ev, ep)
      .then(
        (outcome) => void pass.result[outcome]++,
        // The lease runs out and a later pass tries again.
        (e) => log("error", "webhook delivery not recorded", { delivery: c.id, ...errorFacts(e) }),
      )
      .finally(() => pass.sending.delete(sending));
    pass.sending.add(sending);
  }
  if (left.length) {
    await db
      .update(webhookDeliveries)
      .set({ lockedUntil: null })
      .where(and(inArray(webhookDeliveries.id, left), eq(webhookDeliveries.lockedUntil, leaseEnd)));
  }
  return claimed.length;
}

/** Resolves after `ms`; the timer does not keep the process alive. */
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * When a pending delivery to an active endpoint next comes due (its retry time, or the end of
 * a dead deliverer's lease), or null: the moment a pass could find work with nothing written.
 */
export async function nextDelivery(db: Db): Promise<Date | null> {
  return momentOf(
    await db.execute(sql`
      select extract(epoch from min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at))))::float8 * 1000 as ms
      from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
      where d.status = 'pending' and w.status = 'active'`),
  );
}

const KEEP_MS = 30 * 86400_000;

/**
 * Forgets events older than 30 days that nothing waits for any more (their deliveries and
 * attempts go with them), a thousand at a time. Returns how many.
 */
export async function pruneOld(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - KEEP_MS).toISOString();
  const res = await db.execute(sql`
    delete from webhook_events where id in (
      select e.id from webhook_events e
      where e.created_at < ${cutoff}::timestamptz
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
      limit 1000)
    returning id`);
  return rowsOf(res).length;
}

type Event = typeof webhookEvents.$inferSelect;
type Endpoint = typeof webhookEndpoints.$inferSelect;

async function sendOne(db: Db, p: Ports, clock: () => Date, c: Claim, ev: Event, ep: Endpoint): Promise<keyof DeliverResult> {
  const body = JSON.stringify(ev.payload);
  // The signature's timestamp is the real time of sending: receivers compare it with their
  // own clock to refuse replays (the injected clock only decides what is due).
  const sentAt = new Date();
  const started = Date.now();
  const res = await p.webhooks.send({
    url: ep.url,
    body,
    timeoutMs: p.config().WEBHOOK_TIMEOUT_MS,
    headers: {
      "content-type": "application/json",
      "user-agent": "Contentio-Webhooks/1",
      "webhook-id": ev.id,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": signatureHeader(signingSecrets(ep, clock()), ev.id, sentAt, body),
    },
  });
  const now = clock();
  const ok = res.status !== null && res.status >= 200 && res.status < 300;
  const attempt = c.attempts + 1;
  const giveUp = !ok && now.getTime() >= ev.createdAt.getTime() + RETRY_FOR_MS;
  const next = ok || giveUp ? now : new Date(Math.min(now.getTime() + backoffMs(attempt), ev.createdAt.getTime() + RETRY_FOR_MS));
  let outcome = (ok ? "delivered" : giveUp ? "failed" : "retrying") as keyof DeliverResult;
  await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId: c.id,
      endpointId: ep.id,
      attempt,
      responseCode: res.status,
      error: res.error,
      durationMs: Date.now() - started,
      createdAt: now,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status: ok ? "delivered" : giveUp ? "failed" : "pending",
        attempts: attempt,
        lastAttemptAt: now,
        lastResponseCode: res.status,
        lastError: res.error,
        nextAttemptAt: next,
        lockedUntil: null,
        ...(ok && { deliveredAt: now }),
      })
      .where(eq(webhookDeliveries.id, c.id));
    if (ok) {
      await tx.update(webhookEndpoints).set({ lastDeliveryAt: now, failingSince: null }).where(eq(webhookEndpoints.id, ep.id));
      return;
    }
    const [e] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
      .where(eq(webhookEndpoints.id, ep.id))
      .returning({ failingSince: webhookEndpoints.failingSince });
    if (e?.failingSince && now.getTime() - e.failingSince.getTime() >= RETRY_FOR_MS) {
      const paused = await tx
        .update(webhookEndpoints)
        .set({
          status: "paused",
          pausedReason: `Every delivery failed for 3 days (last: ${res.error ?? "no answer"}), so the service paused it. Fix the endpoint, then resume it.`,
          updatedAt: now,
        })
        .where(and(eq(webhookEndpoints.id, ep.id), eq(webhookEndpoints.status, "active")))
        .returning({ id: webhookEndpoints.id });
      if (paused.length) outcome = "paused";
    }
  });
  if (outcome === "paused") log("warn", "webhook endpoint paused", { endpoint: ep.id });
  return outcome;
}
