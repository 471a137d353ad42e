import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { formKey } from "@/lib/transports/owner/door";
import { planPurpose } from "@/lib/transports/owner/plan-review";
import { db } from "@/lib/adapters/db";
import { decisionHash } from "@/lib/domain/approvals/approvals";
import { planRequests, waiting } from "@/lib/domain/approvals/plans";
import { formatTime } from "@/components/format";
import { AppOrigin } from "@/components/asking-app";
import { DeliberateButton } from "@/components/deliberate-button";
import { ExactAction, exactActionFacts } from "@/components/exact-action";
import { OwnerShell } from "@/components/owner-shell";
import { SandboxNote } from "@/components/sandbox-note";
import { sandboxNetworks } from "@/lib/adapters/platforms/destination";
import "@/components/connections.css";
import { decidePlanAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Review a plan · Contentio" };

const STATUS_TEXT: Record<string, string> = { approved: "Approved", denied: "Declined", used: "Approved and done" };
const VERB: Record<string, string> = { schedule_content: "Schedule", publish_now: "Publish now", delete_draft: "Delete" };
/** Where a request no longer waiting stands. */
function decidedText(r: { status: string; expiresAt: Date; appRevoked: Date | null }, now: Date) {
  if (r.appRevoked && r.status !== "used") return "the app was disconnected";
  if (r.status === "approved" && r.expiresAt <= now) return "approved, then expired unused";
  return STATUS_TEXT[r.status] ?? "expired without a decision";
}
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** What the last press did, from the address it landed on. */
function outcome(q: Record<string, string | undefined>): { tone: "ok" | "error"; text: string } | null {
  if (q.result === "expired-form") return { tone: "error", text: "This page had expired, so nothing changed. Decide again below." };
  if (q.approved === undefined) return null;
  const [approved, declined, unchanged] = [q.approved, q.declined, q.unchanged].map((v) => Number(v) || 0);
  const done = `Approved ${count(approved, "action")}, declined ${declined}.`;
  if (!unchanged) return { tone: "ok", text: done };
  return { tone: "error", text: `${done} ${count(unchanged, "action")} changed nothing: no longer waiting, or not as this page showed it.` };
}

export default async function PlanReviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { id } = await params;
  const me = await requireOwner(`/approvals/plan/${id}`);
  const d = await db();
  const requests = await planRequests(d, me.id, id);
  const first = requests[0];
  if (!first) {
    return (
      <OwnerShell email={me.email} userId={me.id} narrow current="/approvals">
        <h1>Plan not found</h1>
        <p>This link does not match a plan on your account. If an app gave it to you, ask it to repeat its requests to get a new link.</p>
        <p>
          <a href="/approvals">Go to Approvals</a>
        </p>
      </OwnerShell>
    );
  }
  const now = new Date();
  const open = requests.filter((r) => waiting(r, now));
  const decided = requests.filter((r) => !waiting(r, now));
  const facts = await Promise.all(open.map((r) => exactActionFacts(d, me.id, r)));
  const status = outcome(await searchParams);
  const label = first.action.plan!.label;
  const soonest = open.length ? new Date(Math.min(...open.map((r) => r.expiresAt.getTime()))) : null;
  const utc = me.timezone === "UTC" ? "" : " UTC";

  return (
    <OwnerShell email={me.email} userId={me.id} current="/approvals">
      <h1>
        {first.appName}&rsquo;s plan &ldquo;{label}&rdquo;
      </h1>
      <p>
        Asked by {first.appName}
        {first.selfRegistered || first.appFrom ? (
          <>
            {" "}
            <AppOrigin app={first} />
          </>
        ) : null}
        . Each action below is approved for exactly what it shows; changing one afterwards voids that one&rsquo;s approval only. Untick what you do not want:
        what is left unticked is declined.
      </p>
      {status ? (
        <p className={status.tone === "ok" ? "ok-box" : "error-box"} role={status.tone === "ok" ? "status" : "alert"}>
          {status.text}
        </p>
      ) : null}
      {open.length ? (
        <form action={decidePlanAction.bind(null, id)}>
          <input type="hidden" name="csrf" value={csrfToken(me.id, planPurpose(id))} />
          <input type="hidden" name="key" value={formKey()} />
          <p>
            {count(open.length, "action")} waiting
            {soonest ? (
              <>
                ; the first request expires at {formatTime(soonest, me.timezone)}
                {utc ? ` (${formatTime(soonest, "UTC")}${utc})` : ""}
              </>
            ) : null}
            .
          </p>
          {/* Said once for the plan, not on each of its actions. */}
          <SandboxNote networks={sandboxNetworks([...new Set(facts.filter((f) => f.dest.sandbox).map((f) => f.type))])} />
          <ol className="plan-list" aria-label="Actions of this plan">
            {open.map((r, i) => (
              <li key={r.id} className="card plan-item" aria-labelledby={`item-${r.id}`}>
                <input type="hidden" name="item" value={`${r.id}:${decisionHash(r)}`} />
                <h2 id={`item-${r.id}`}>
                  {i + 1}. {VERB[r.operation] ?? r.operation} &ldquo;{r.action.title}&rdquo;
                </h2>
                <p className="plan-choice">
                  <label>
                    <input type="checkbox" name="approve" value={r.id} defaultChecked /> Approve this action
                    <span className="sr-only">
                      {" "}
                      ({i + 1}. &ldquo;{r.action.title}&rdquo;)
                    </span>
                  </label>
                </p>
                <ExactAction a={r} facts={facts[i]} timeZone={me.timezone} sandboxNote={false} />
                <p>
                  <a href={`/confirm/${r.id}`}>
                    Its own page
                    <span className="sr-only">
                      {" "}
                      ({i + 1}. &ldquo;{r.action.title}&rdquo;)
                    </span>
                  </a>
                </p>
              </li>
            ))}
          </ol>
          <p className="actions">
            <DeliberateButton className="btn primary" type="submit" name="decision" value="approve">
              Approve selected
            </DeliberateButton>
            <button className="btn" type="submit" name="decision" value="decline">
              Decline all
            </button>
          </p>
        </form>
      ) : (
        <p className="card muted">Nothing of this plan is waiting for your decision.</p>
      )}
      {decided.length ? (
        <section aria-labelledby="decided">
          <h2 id="decided">Already decided or expired</h2>
          <ul>
            {decided.map((r) => (
              <li key={r.id}>
                {VERB[r.operation] ?? r.operation} &ldquo;{r.action.title}&rdquo;: {decidedText(r, now)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p>
        <a href="/approvals">Back to Approvals</a>
      </p>
    </OwnerShell>
  );
}
