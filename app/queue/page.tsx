import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { accountLabel, listAccounts, ownAccount } from "@/lib/domain/accounts/accounts";
import { queueOverview, WEEKDAYS } from "@/lib/domain/queue/queue";
import { NETWORK_NAMES, NETWORKS, network } from "@/lib/domain/networks";
import { ActionForm } from "@/components/action-form";
import { FormOutcome } from "@/components/form-outcome";
import { OwnerShell } from "@/components/owner-shell";
import { formatInZone } from "@/components/format";
import { ports } from "@/lib/adapters/ports";
import { ownerContext } from "@/lib/domain/owner/owner";
import { confirmedDrafts } from "@/lib/domain/drafts/confirmed";
import { formKey } from "@/lib/transports/owner/door";
import { listDetails } from "@/lib/domain/owner/content-list";
import { servedAt } from "@/lib/core/media-url";
import { destination } from "@/lib/adapters/platforms/destination";
import { addSlot, moveDraft, removeSlot, setPaused } from "./actions";
import { TimeField } from "@/components/time-field";

export const dynamic = "force-dynamic";
export const metadata = { title: "Queue · Contentio" };

const DONE: Record<string, string> = {
  "slot-added": "Slot added. Drafts already scheduled stay where they are.",
  "slot-removed": "Slot removed. Drafts already scheduled stay where they are.",
  paused: "Queue paused: it takes no drafts until you resume it. What is scheduled still goes out.",
  resumed: "Queue resumed.",
  moved: "Moved.",
};
const DAY_NAMES: Record<string, string> = { mon: "Monday", tue: "Tuesday", wed: "Wednesday", thu: "Thursday", fri: "Friday", sat: "Saturday", sun: "Sunday" };
const WEEK = [...WEEKDAYS.slice(1), WEEKDAYS[0]];
const SHOWN = 10;

/**
 * The owner's posting queues: for each account, its weekly slots (add, remove), pause, and the
 * next slots with the draft in each; a queued draft can move to a free slot or to the end.
 */
export default async function QueuePage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const me = await requireOwner("/queue", { complete: true });
  const d = await db();
  const csrf = csrfToken(me.id, "queue");
  const now = new Date();
  const accounts = await Promise.all(
    (await listAccounts(d, me.id, now)).map(async (a) => ({
      a,
      q: await queueOverview(d, me.id, me.timezone, await ownAccount(d, me.id, a.account_id), now, SHOWN),
    })),
  );
  const details = await listDetails(
    ownerContext(d, me, ports()),
    accounts.flatMap(({ q }) => q.upcoming.flatMap((s) => (s.draft ? [s.draft] : []))),
  );
  // The queue shows titles only: a draft moves from here only when the owner has seen all of it as it is now.
  const queued = accounts.flatMap(({ q }) => q.upcoming.flatMap((s) => (s.draft ? [s.draft] : [])));
  const confirmed = new Map(
    (
      await Promise.all(
        (["post", "tweet"] as const).map((type) =>
          confirmedDrafts(
            d,
            me.id,
            type,
            queued.filter((x) => x.type === type).map((x) => x.id),
          ),
        ),
      )
    ).flatMap((m) => [...m]),
  );
  const key = formKey();
  const hidden = (accountId: string) => (
    <>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="accountId" value={accountId} />
    </>
  );
  return (
    <OwnerShell email={me.email} userId={me.id} current="/queue">
      <h1>Queue</h1>
      <FormOutcome done={sp.done ? DONE[sp.done] : undefined} error={sp.error} />
      <p className="meta">
        Weekly posting times for each account, in your time zone ({me.timezone}). You or an app can queue a draft into the next free slot, one a slot.{" "}
        <a href="/import">Import many from a spreadsheet</a>.
      </p>
      {accounts.length === 0 ? (
        <p>
          No{" "}
          {NETWORKS.map((n) => n.name)
            .join(", ")
            .replace(/, ([^,]*)$/, " or $1")}{" "}
          account is connected yet. <a href="/settings/connections">Connect one</a> to give it a queue.
        </p>
      ) : null}
      {accounts.map(({ a, q }) => {
        // The sandbox is never called LinkedIn or X: its queue is named for what it takes; a
        // real account by its own network (a microblog's: X or Bluesky).
        const name = a.sandbox ? `Sandbox: ${network(a.platform).draftType}s` : `${NETWORK_NAMES[a.network]}: ${accountLabel(a) ?? "account"}`;
        const free = q.upcoming.filter((s) => !s.draft);
        return (
          <section key={a.account_id} className="card" aria-labelledby={`q-${a.account_id}`}>
            <h2 id={`q-${a.account_id}`}>
              {name} {a.sandbox ? <span className="badge net">Sandbox</span> : null} {a.default ? <span className="badge net">Default</span> : null}{" "}
              {q.paused ? <span className="badge warn">Paused</span> : null}
            </h2>
            {a.sandbox ? (
              <p className="meta">
                Its {network(a.platform).draftType}s go to {destination(network(a.platform).draftType).account}.
              </p>
            ) : null}
            <ActionForm action={setPaused} label={q.paused ? "Resume queue" : "Pause queue"} labelClass="btn">
              {hidden(a.account_id)}
              <input type="hidden" name="paused" value={q.paused ? "off" : "on"} />
            </ActionForm>

            <h3>Slots</h3>
            {q.slots.length ? (
              <ul className="rows" aria-label={`Slots of ${name}`}>
                {q.slots.map((s) => (
                  <li key={`${s.weekday}-${s.time}`}>
                    <span>
                      {DAY_NAMES[s.weekday]} {s.time}
                    </span>
                    <ActionForm action={removeSlot} label="Remove" labelClass="btn">
                      {hidden(a.account_id)}
                      <input type="hidden" name="weekday" value={s.weekday} />
                      <input type="hidden" name="time" value={s.time} />
                    </ActionForm>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No slots yet: add the times this account posts at.</p>
            )}
            <ActionForm action={addSlot} label="Add slot" labelClass="btn primary" className="inline-forms">
              {hidden(a.account_id)}
              <label>
                Day{" "}
                <select name="weekday" defaultValue="mon">
                  {WEEK.map((w) => (
                    <option key={w} value={w}>
                      {DAY_NAMES[w]}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Time (24-hour) <TimeField name="time" defaultValue="09:00" />
              </label>
            </ActionForm>

            <h3>Next slots</h3>
            {q.upcoming.length ? (
              <ol className="rows" aria-label={`Next slots of ${name}`}>
                {q.upcoming.map((s) => (
                  <li key={s.at.toISOString()}>
                    <div className="slot">
                      {s.draft && details.get(s.draft.id)?.image ? (
                        // A plain img: the draft's own address; the title beside it names the row.
                        // eslint-disable-next-line @next/next/no-img-element
                        <img className="thumb" src={servedAt(details.get(s.draft.id)!.image!)} alt="" loading="lazy" />
                      ) : null}
                      <div>
                        <strong>{formatInZone(s.at, me.timezone)}</strong>
                        <p className="meta">
                          {s.draft ? <a href={`/content/${s.draft.type}/${s.draft.id}`}>{s.draft.title}</a> : <span className="muted">Empty slot</span>}
                          {s.draft && (details.get(s.draft.id)?.parts ?? 1) > 1 ? (
                            <>
                              {" "}
                              <span className="badge thread">Thread · {details.get(s.draft.id)!.parts} parts</span>
                            </>
                          ) : null}
                        </p>
                      </div>
                    </div>
                    {s.draft && !confirmed.has(s.draft.id) ? (
                      <p className="help">
                        An app wrote or changed it since you last saw it: <a href={`/content/${s.draft.type}/${s.draft.id}`}>read it</a> to move it.
                      </p>
                    ) : s.draft ? (
                      <div className="actions">
                        {free.length ? (
                          <ActionForm action={moveDraft} label="Move" labelClass="btn" className="inline-forms">
                            {hidden(a.account_id)}
                            <input type="hidden" name="type" value={s.draft.type} />
                            <input type="hidden" name="id" value={s.draft.id} />
                            <input type="hidden" name="shown" value={confirmed.get(s.draft.id)} />
                            <input type="hidden" name="key" value={key} />
                            <label>
                              To{" "}
                              <select name="to" aria-label={`Move “${s.draft.title}” to`}>
                                {free.map((f) => (
                                  <option key={f.at.toISOString()} value={f.at.toISOString()}>
                                    {formatInZone(f.at, me.timezone)}
                                  </option>
                                ))}
                              </select>
                            </label>
                          </ActionForm>
                        ) : null}
                        <ActionForm action={moveDraft} label="Move to the end" labelClass="btn">
                          {hidden(a.account_id)}
                          <input type="hidden" name="type" value={s.draft.type} />
                          <input type="hidden" name="id" value={s.draft.id} />
                          <input type="hidden" name="shown" value={confirmed.get(s.draft.id)} />
                          <input type="hidden" name="key" value={key} />
                          <input type="hidden" name="to" value="end" />
                        </ActionForm>
                      </div>
                    ) : null}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="muted">No slots within the coming year.</p>
            )}
          </section>
        );
      })}
    </OwnerShell>
  );
}
