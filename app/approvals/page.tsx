import { requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { approvalInbox } from "@/lib/domain/approvals/inbox";
import { accountLabel } from "@/lib/domain/accounts/accounts";
import { platformAccounts } from "@/lib/domain/accounts/connections";
import { destination } from "@/lib/adapters/platforms/destination";
import { ApprovalEntry, PlanEntry } from "@/components/approval-entry";
import { groupInbox } from "@/lib/domain/approvals/plans";
import { OwnerShell } from "@/components/owner-shell";
import { PLATFORM_NAMES } from "@/components/format";

export const dynamic = "force-dynamic";
export const metadata = { title: "Approvals · Contentio" };

export default async function ApprovalsPage() {
  const me = await requireOwner("/approvals", { complete: true });
  const d = await db();
  const now = new Date();
  const [inbox, defaults] = await Promise.all([approvalInbox(d, me.id, now), platformAccounts(d, me.id, now)]);
  // Requests an app labelled as one plan wait together in its review; the rest one by one, by app.
  const { plans, singles } = groupInbox(inbox);
  return (
    <OwnerShell email={me.email} userId={me.id} current="/approvals">
      <h1>Waiting for your approval</h1>
      <p>
        Apps ask here before they publish, schedule or delete, or change a scheduled draft. Each request lasts 10 minutes; open it to approve or deny exactly
        that action. Requests an app sent as one plan are reviewed together.
      </p>
      {plans.length ? (
        <ul className="approval-list" aria-label="Plans waiting for your review">
          {plans.map((p) => (
            <PlanEntry key={p.id} plan={p} timeZone={me.timezone} now={now} />
          ))}
        </ul>
      ) : null}
      {inbox.length === 0 ? (
        <p className="card muted">
          Nothing is waiting for your approval. When an app asks to publish, schedule, delete or change a scheduled draft, the request appears here, and every
          page says so.
        </p>
      ) : singles.length ? (
        <ul className="approval-list" aria-label="Requests waiting for your approval">
          {singles.map((a) => {
            const type = a.action.type === "tweet" ? "tweet" : "post";
            // The account the request names; an older request: the network's default.
            const handle = a.action.account
              ? accountLabel(a.action.account)
              : (defaults.find((p) => PLATFORM_NAMES[p.provider] === PLATFORM_NAMES[type])?.handle ?? null);
            return (
              <ApprovalEntry
                key={a.id}
                a={a}
                dest={destination(type, handle, a.action.account?.network)}
                handle={handle}
                owner={me.name ?? me.email}
                timeZone={me.timezone}
                now={now}
              />
            );
          })}
        </ul>
      ) : null}
      <p>
        <a href="/settings/connections">Connections</a>: the apps that can ask, and whether they may publish at all.
      </p>
    </OwnerShell>
  );
}
