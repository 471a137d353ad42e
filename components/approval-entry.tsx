import type { InboxEntry } from "@/lib/domain/approvals/inbox";
import type { InboxPlan } from "@/lib/domain/approvals/plans";
import "./connections.css";
import type { Destination } from "@/lib/adapters/platforms/destination";
import { actsAt } from "@/lib/domain/approvals/approvals";
import { AskedFor } from "./asking-app";
import { PostPreview } from "./post-preview";
import { OPERATION_WORDS, formatInZone, formatTime, relative } from "./format";

type Props = { a: InboxEntry; dest: Destination; handle: string | null; owner: string; timeZone: string; now: Date };

/**
 * One request of the approvals inbox: who asks, for what, where and when, until when it can be
 * decided, and the content as the network will show it. Deciding happens on the request's own
 * page, the one place that approves; this only leads there.
 */
export function ApprovalEntry({ a, dest, handle, owner, timeZone, now }: Props) {
  const type = a.action.type === "tweet" ? "tweet" : "post";
  const edit = a.operation === "update_draft" && a.proposed;
  const text = edit ? edit.body : a.body;
  const image = edit ? (edit.attachments?.image_urls[0] ?? edit.image_url) : (a.attachments?.image_urls[0] ?? a.imageUrl);
  const parts = (edit ? edit.attachments : a.attachments)?.thread.length ?? 0;
  const at = actsAt(a.action);
  const utc = timeZone === "UTC" ? "" : ` (${formatTime(a.expiresAt, "UTC")})`;
  const hid = `req-${a.id}`;
  return (
    <li className="card approval-entry">
      <h2 id={hid}>
        {a.appName} wants to {OPERATION_WORDS[a.operation] ?? a.operation}: &ldquo;{a.action.title}&rdquo;
      </h2>
      <dl className="facts">
        <AskedFor a={a} />
        <dt>Where</dt>
        <dd>{dest.account}</dd>
        <dt>When</dt>
        <dd>{at ? formatInZone(new Date(at), timeZone) : `Once approved, when ${a.appName} repeats its request`}</dd>
        <dt>Expires</dt>
        <dd>
          {relative(a.expiresAt, now)}, at {formatTime(a.expiresAt, timeZone)}
          {utc}
        </dd>
      </dl>
      {edit ? <p className="help">The proposed text; its page shows it beside the current one.</p> : null}
      <PostPreview type={type} text={text} imageUrl={image ?? null} name={owner} handle={handle} sandbox={dest.sandbox} network={a.action.account?.network} />
      {parts ? (
        <p className="help">
          and {parts} more part{parts === 1 ? "" : "s"} of the thread, shown on its page.
        </p>
      ) : null}
      <p className="actions">
        <a className="btn primary" href={`/confirm/${a.id}`}>
          Review and decide<span className="sr-only"> on &ldquo;{a.action.title}&rdquo;</span>
        </a>
        <a className="btn" href={`/content/${type}/${a.action.id}`}>
          Open the draft<span className="sr-only"> &ldquo;{a.action.title}&rdquo;</span>
        </a>
      </p>
    </li>
  );
}

/**
 * A plan of the inbox: the app's label, how many actions wait in it and what each is; they are
 * decided together on the plan's review, which shows each in full.
 */
export function PlanEntry({ plan, timeZone, now }: { plan: InboxPlan; timeZone: string; now: Date }) {
  const soonest = new Date(Math.min(...plan.requests.map((r) => r.expiresAt.getTime())));
  const n = plan.requests.length;
  return (
    <li className="card approval-entry">
      <h2>
        {plan.appName}&rsquo;s plan &ldquo;{plan.label}&rdquo;: {n} action{n === 1 ? "" : "s"}
      </h2>
      <ol>
        {plan.requests.map((r) => {
          const at = actsAt(r.action);
          return (
            <li key={r.id}>
              {OPERATION_WORDS[r.operation] ?? r.operation}: &ldquo;{r.action.title}&rdquo;{at ? `, ${formatInZone(new Date(at), timeZone)}` : ""}
            </li>
          );
        })}
      </ol>
      <p className="help">
        The first request expires {relative(soonest, now)}, at {formatTime(soonest, timeZone)}.
      </p>
      <p className="actions">
        <a className="btn primary" href={`/approvals/plan/${plan.id}`}>
          Review the plan<span className="sr-only"> &ldquo;{plan.label}&rdquo;</span>
        </a>
      </p>
    </li>
  );
}
