import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { formKey } from "@/lib/transports/owner/door";
import { db } from "@/lib/adapters/db";
import { decisionHash } from "@/lib/domain/approvals/approvals";
import { approvalForOwner } from "@/lib/domain/accounts/connections";
import { formatTime } from "@/components/format";
import { DeliberateButton } from "@/components/deliberate-button";
import { ExactAction, exactActionFacts, headline } from "@/components/exact-action";
import { OwnerShell } from "@/components/owner-shell";
import { decide } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Approve an action · Contentio" };

export default async function ConfirmPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { id } = await params;
  const { result } = await searchParams;
  const me = await requireOwner(`/confirm/${id}`);
  const d = await db();
  const a = await approvalForOwner(d, me.id, id);
  if (!a) {
    return (
      <OwnerShell email={me.email} userId={me.id} narrow>
        <h1>Approval not found</h1>
        <p>This link does not match a request on your account. If an app gave it to you, ask it to repeat the action to get a new link.</p>
        <p>
          <a href="/settings/connections">Go to Connections</a>
        </p>
      </OwnerShell>
    );
  }
  const now = new Date();
  const facts = await exactActionFacts(d, me.id, a);
  const expired = a.expiresAt <= now;
  const expiry = `${formatTime(a.expiresAt, me.timezone)}${me.timezone === "UTC" ? "" : ` (${formatTime(a.expiresAt, "UTC")})`}`;
  const open = a.status === "pending" && !expired && !a.appRevoked;
  let status: { tone: "ok" | "error"; text: string } | null = null;
  // Disconnecting the app denied what it had asked for and not used; the page says why.
  if (a.appRevoked && a.status !== "used") status = { tone: "error", text: `${a.appName} was disconnected, so this request no longer applies.` };
  else if (a.status === "approved" && !expired)
    status = { tone: "ok", text: `Approved. ${a.appName} can now complete the action; this approval expires at ${expiry}.` };
  else if (a.status === "approved") status = { tone: "error", text: `This approval expired at ${expiry} without being used. Ask ${a.appName} to try again.` };
  else if (a.status === "used") status = { tone: "ok", text: `Done: ${a.appName} used this approval, so it cannot be used again.` };
  else if (a.status === "denied") status = { tone: "ok", text: `Denied. ${a.appName} cannot do this; it would have to ask again.` };
  else if (expired) status = { tone: "error", text: `This request expired at ${expiry}. Ask ${a.appName} to try again for a new one.` };
  if (result === "late") status = { tone: "error", text: `Nothing changed: this request was no longer waiting for a decision. ${status?.text ?? ""}` };
  if (result === "expired-form") status = { tone: "error", text: "This page had expired, so nothing changed. Decide again below." };
  const plan = a.action.plan;

  return (
    <OwnerShell email={me.email} userId={me.id} wide={a.operation === "update_draft" && !!a.proposed}>
      <h1>{headline(a.appName, a.operation, facts.type, facts.dest)}</h1>
      {status ? (
        <p className={status.tone === "ok" ? "ok-box" : "error-box"} role={status.tone === "ok" ? "status" : "alert"}>
          {status.text}
        </p>
      ) : null}
      {plan && open ? (
        <p className="card">
          Part of {a.appName}&rsquo;s plan &ldquo;{plan.label}&rdquo;. <a href={`/approvals/plan/${plan.id}`}>Review the whole plan</a> to decide its actions
          together.
        </p>
      ) : null}
      <section className="card" aria-labelledby="action">
        <h2 id="action">The exact action</h2>
        <ExactAction a={a} facts={facts} timeZone={me.timezone} />
      </section>
      {open ? (
        <form action={decide.bind(null, a.id)} className="actions">
          <input type="hidden" name="csrf" value={csrfToken(me.id, `confirm:${a.id}`)} />
          <input type="hidden" name="key" value={formKey()} />
          <input type="hidden" name="shown" value={decisionHash(a)} />
          <DeliberateButton className="btn primary" type="submit" name="decision" value="approve">
            Approve
          </DeliberateButton>
          <button className="btn" type="submit" name="decision" value="deny">
            Deny
          </button>
        </form>
      ) : null}
      <p>
        <a href="/settings/connections">Back to Connections</a>
      </p>
    </OwnerShell>
  );
}
