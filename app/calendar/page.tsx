import Link from "next/link";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { calendarItems, movable, type CalendarItem } from "@/lib/domain/publishing/calendar";
import { formKey } from "@/lib/transports/owner/door";
import { ownerContext } from "@/lib/domain/owner/owner";
import { STATUS_WORDS, formatTime, zonedParts, zonedToUtc } from "@/components/format";
import { OwnerShell } from "@/components/owner-shell";
import { destination } from "@/lib/adapters/platforms/destination";
import { DEFAULT_TIME, unscheduledDrafts } from "@/lib/domain/publishing/calendar-move";
import { ActionForm } from "@/components/action-form";
import { CalendarDrop } from "@/components/calendar-drop";
import { FormOutcome } from "@/components/form-outcome";
import { moveToDay } from "./actions";
import { openSlots } from "@/lib/domain/queue/queue";
import { accountLabel, draftAccount, listAccounts } from "@/lib/domain/accounts/accounts";
import { networkFor, networkOfDraft, type DraftType, type NetworkName, type PlatformName } from "@/lib/domain/networks";

export const dynamic = "force-dynamic";
export const metadata = { title: "Calendar · Contentio" };

// Plain calendar dates ("2026-11-23") in the owner's time zone; arithmetic on them in UTC.
const DAY_MS = 86400_000;
const asDate = (s: string) => new Date(`${s}T00:00:00Z`);
const ymd = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (s: string, n: number) => ymd(new Date(asDate(s).getTime() + n * DAY_MS));
const weekday = (s: string) => (asDate(s).getUTCDay() + 6) % 7; // Monday first
const addMonths = (s: string, n: number) => {
  const d = asDate(`${s.slice(0, 7)}-01`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return ymd(d);
};
const label = (s: string, o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...o }).format(asDate(s));
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const SIDE_LIST = 12; // the most recently changed drafts without a time; the rest are in Content
const DONE: Record<string, string> = { moved: "Moved. It keeps its time of day.", scheduled: "Scheduled." };
// A status shown beside the title as a mark as well as its colour (the word is read out).
const MARK: Record<string, string> = { published: "✓", failed: "!", unknown: "?", publishing: "…" };

/** The network's colour class: the sandbox has its own, so it never looks like LinkedIn, X or Bluesky. */
const netClass = (to: { sandbox: boolean }, network: NetworkName) => (to.sandbox ? "net-sandbox" : `net-${network}`);

function range(view: "week" | "month", anchor: string) {
  if (view === "week") {
    const first = addDays(anchor, -weekday(anchor));
    return {
      first,
      days: 7,
      prev: addDays(first, -7),
      next: addDays(first, 7),
      title: `Week of ${label(first, { day: "numeric", month: "long", year: "numeric" })}`,
    };
  }
  const m1 = `${anchor.slice(0, 7)}-01`;
  const lastDay = addDays(addMonths(m1, 1), -1);
  const first = addDays(m1, -weekday(m1));
  const end = addDays(lastDay, 6 - weekday(lastDay));
  const days = Math.round((asDate(end).getTime() - asDate(first).getTime()) / DAY_MS) + 1;
  return { first, days, prev: addMonths(m1, -1), next: addMonths(m1, 1), title: label(m1, { month: "long", year: "numeric" }) };
}

/** An open slot's network (its account's: X or Bluesky for a microblog), as its drafts would go: the sandbox when the network is not set up. */
const slotNetwork = (account: { platform: PlatformName; provider: string }) => {
  const n = networkFor(account.platform, account);
  return destination(n.draftType, null, n.id).sandbox ? `Sandbox ${n.draftType}s` : n.name;
};

export default async function CalendarPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const me = await requireOwner("/calendar", { complete: true });
  const tz = me.timezone;
  const view = sp.view === "week" ? "week" : "month";
  const today = zonedParts(new Date(), tz).date;
  // A day of years 1000 to 9998 only: the view reaches into the weeks around it, and
  // PostgreSQL holds no time past 9999.
  const anchor = sp.d && /^[1-9]\d{3}-\d{2}-\d{2}$/.test(sp.d) && sp.d < "9999" && !isNaN(asDate(sp.d).getTime()) ? sp.d : today;
  const r = range(view, anchor);
  const days = Array.from({ length: r.days }, (_, i) => addDays(r.first, i));
  const from = zonedToUtc(r.first, "00:00", tz)!;
  const to = zonedToUtc(addDays(r.first, r.days), "00:00", tz)!;
  const ctx = ownerContext(await db(), me, ports());
  const [items, accounts, loose] = await Promise.all([calendarItems(ctx, from, to), listAccounts(await db(), me.id), unscheduledDrafts(ctx, SIDE_LIST)]);
  // With several accounts on a network, each item names its own (else the network's default).
  const accountOf = (i: CalendarItem) => {
    const { platform } = networkOfDraft(i.type);
    if (accounts.filter((a) => a.platform === platform).length < 2) return null;
    const a = draftAccount(accounts, i.type, i.accountId);
    return a ? accountLabel(a) : null;
  };
  // Where each draft goes, by its account: a tweet to X or to Bluesky.
  const goesTo = (i: { type: DraftType; accountId: string | null }) => {
    const network = draftAccount(accounts, i.type, i.accountId)?.network ?? networkOfDraft(i.type).id;
    const to = destination(i.type, null, network);
    return { badge: to.badge, netClass: netClass(to, network) };
  };
  const byDay = new Map<string, CalendarItem[]>();
  for (const i of items) {
    const k = zonedParts(i.at, tz).date;
    byDay.set(k, [...(byDay.get(k) ?? []), i]);
  }
  // The queues' free slots ahead, each under its day: where a queued draft would go.
  const slotsByDay = new Map<string, Awaited<ReturnType<typeof openSlots>>>();
  for (const s of await openSlots(await db(), me.id, tz, from, to, new Date())) {
    const k = zonedParts(s.at, tz).date;
    slotsByDay.set(k, [...(slotsByDay.get(k) ?? []), s]);
  }
  const href = (d: string, v = view) => `/calendar?view=${v}&d=${d}`;
  const month = anchor.slice(0, 7);
  const csrf = csrfToken(me.id, "calendar");
  const key = formKey();
  const viewFields = (
    <>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="key" value={key} />
      <input type="hidden" name="view" value={view} />
      <input type="hidden" name="d" value={anchor} />
    </>
  );

  return (
    <OwnerShell email={me.email} userId={me.id} current="/calendar" wide>
      <h1>Calendar</h1>
      <p className="muted">
        Scheduled and published posts and tweets, and your queues&apos; open slots, in your time zone ({tz}). Drag a scheduled item to another day to move it
        (it keeps its time of day), or open it to choose a time.
      </p>
      <FormOutcome done={sp.done ? DONE[sp.done] : undefined} error={undefined} />
      {/* Keyed by the form token, new each time the page is drawn (after a move too): a refusal shown before does not stay. */}
      <CalendarDrop key={csrf} action={moveToDay} csrf={csrf} formKey={key} view={view} anchor={anchor} />
      <nav className="cal-nav" aria-label="Calendar">
        <div>
          <Link href={href(r.prev)}>← Previous {view}</Link>
          <Link href={href(today)}>Today</Link>
          <Link href={href(r.next)}>Next {view} →</Link>
        </div>
        <div>
          <Link href={href(anchor, "month")} aria-current={view === "month" ? "page" : undefined}>
            Month
          </Link>
          <Link href={href(anchor, "week")} aria-current={view === "week" ? "page" : undefined}>
            Week
          </Link>
        </div>
      </nav>
      <div className="cal-layout">
        <div>
          <h2>{r.title}</h2>
          <div className={`cal ${view}`}>
            <div className="cal-head" aria-hidden="true">
              {WEEKDAYS.map((w) => (
                <span key={w}>{w}</span>
              ))}
            </div>
            <ol className="cal-days">
              {days.map((d) => {
                const list = byDay.get(d) ?? [];
                const open = slotsByDay.get(d) ?? [];
                const outside = view === "month" && d.slice(0, 7) !== month;
                return (
                  <li
                    key={d}
                    className={`${outside ? "outside" : ""}${d === today ? " today" : ""}${d < today ? " past" : ""}`}
                    aria-current={d === today ? "date" : undefined}
                    data-day={d}
                  >
                    <h3>
                      <time dateTime={d}>{label(d, { weekday: "short", day: "numeric", month: "short" })}</time>
                      {d === today ? <span className="badge info">Today</span> : null}
                      {d >= today ? (
                        <a className="cal-add" href={`/write?d=${d}`} aria-label={`Write for ${label(d, { weekday: "long", day: "numeric", month: "long" })}`}>
                          +
                        </a>
                      ) : null}
                    </h3>
                    {list.length ? (
                      <ul>
                        {list.map((i) => {
                          const canMove = movable(i.status);
                          const time = formatTime(i.at, tz).replace(/ .*$/, "");
                          // Content the owner has not seen as it is now moves only from its own page: the drop opens it.
                          const drag = i.confirmed
                            ? { type: i.type, id: i.id, shown: i.confirmed }
                            : { type: i.type, id: i.id, review: `/content/${i.type}/${i.id}` };
                          const to = goesTo(i);
                          const words = `${time} ${i.title} · ${to.badge}${accountOf(i) ? ` ${accountOf(i)}` : ""}`;
                          return (
                            <li
                              key={`${i.type}:${i.id}`}
                              className={`cal-item ${i.status} ${to.netClass}${canMove ? " movable" : ""}`}
                              {...(canMove && { draggable: true, "data-drag": JSON.stringify(drag) })}
                            >
                              <Link href={`/content/${i.type}/${i.id}`} title={`${words} (${STATUS_WORDS[i.status] ?? i.status})`} draggable={canMove}>
                                {/* The words first, where a narrow day cuts the line: the colour and border name the network. */}
                                <span className="t">{time}</span> {MARK[i.status] ? <span aria-hidden="true">{MARK[i.status]} </span> : null}
                                {i.title} · <span className="net">{to.badge}</span>
                                {accountOf(i) ? ` ${accountOf(i)}` : ""}
                                <span className="sr-only">, {STATUS_WORDS[i.status] ?? i.status}</span>
                              </Link>
                            </li>
                          );
                        })}
                      </ul>
                    ) : null}
                    {open.length ? (
                      <ul aria-label="Open queue slots">
                        {open.map((s) => (
                          <li key={`${s.account.id}:${s.at.getTime()}`} className="cal-item cal-slot">
                            <Link href="/queue">
                              <span className="t">{formatTime(s.at, tz).replace(/ .*$/, "")}</span> Open slot · {slotNetwork(s.account)}{" "}
                              {accountLabel(s.account)}
                            </Link>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                );
              })}
            </ol>
          </div>
        </div>
        <aside className="cal-side" aria-labelledby="unscheduled">
          <h2 id="unscheduled">Not scheduled yet</h2>
          <p className="muted">
            Drag a draft onto a day to schedule it: at its account&apos;s first free queue slot that day, else at {DEFAULT_TIME}. Or choose the day here.
          </p>
          {loose.length ? (
            <ul className="cal-loose">
              {loose.map((l) => (
                <li
                  key={`${l.type}:${l.id}`}
                  className={`cal-item ${goesTo(l).netClass} movable`}
                  draggable
                  data-drag={JSON.stringify(
                    l.shown ? { type: l.type, id: l.id, shown: l.shown } : { type: l.type, id: l.id, review: `/content/${l.type}/${l.id}` },
                  )}
                >
                  <Link href={`/content/${l.type}/${l.id}`} draggable>
                    <span className="net">{goesTo(l).badge}</span> {l.title}
                  </Link>
                  {l.shown ? (
                    <details>
                      <summary>
                        Choose a day<span className="sr-only"> for “{l.title}”</span>
                      </summary>
                      <ActionForm action={moveToDay} label="Schedule" labelClass="btn" className="inline-forms">
                        {viewFields}
                        <input type="hidden" name="type" value={l.type} />
                        <input type="hidden" name="id" value={l.id} />
                        <input type="hidden" name="shown" value={l.shown} />
                        <label>
                          Day <input type="date" name="day" min={today} defaultValue={today} required />
                        </label>
                      </ActionForm>
                    </details>
                  ) : (
                    <p className="help">
                      An app wrote or changed it since you last saw it: <Link href={`/content/${l.type}/${l.id}`}>read it</Link> before scheduling it.
                    </p>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p>
              Every draft has a time. <Link href="/write">Write one</Link>.
            </p>
          )}
        </aside>
      </div>
    </OwnerShell>
  );
}
