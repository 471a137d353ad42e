import { AskedFor } from "@/components/asking-app";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { formKey } from "@/lib/transports/owner/door";
import { db } from "@/lib/adapters/db";
import { actsAt } from "@/lib/domain/approvals/approvals";
import { approvalForOwner, platformAccounts } from "@/lib/domain/accounts/connections";
import { accountLabel } from "@/lib/domain/accounts/accounts";
import { PLATFORM_NAMES, STATUS_WORDS, formatInZone, formatTime, formatUtc } from "@/components/format";
import { AttachedImage, EditComparison } from "@/components/approval-content";
import { Attachments } from "@/components/draft-media";
import { attachmentUrls, mediaMeta } from "@/lib/domain/media/media";
import { DeliberateButton } from "@/components/deliberate-button";
import { OwnerShell } from "@/components/owner-shell";
import { SandboxNote } from "@/components/sandbox-note";
import type { DraftType } from "@/lib/domain/networks";
import { findOperation } from "@/lib/operations/registry";
import { destination, sandboxNetworks, type Destination } from "@/lib/adapters/platforms/destination";
import { decide } from "./actions";
import { config } from "@/lib/core/config";
import { dollars, xFactsOf } from "@/lib/domain/networks/x/pricing";
import { monthBefore, ownAccount } from "@/lib/domain/spend/x-spend";

export const dynamic = "force-dynamic";
export const metadata = { title: "Approve an action · Contentio" };

function headline(app: string, op: string, type: DraftType, dest: Destination) {
  if (op === "publish_now") return `${app} wants to publish this ${type} to ${dest.name} now`;
  if (op === "schedule_content") return `${app} wants to schedule this ${type} ${dest.where}`;
  if (op === "delete_draft") return `${app} wants to delete this ${type} draft`;
  if (op === "update_draft") return `${app} wants to change this scheduled ${type} ${dest.where}`;
  return `${app} wants to run ${op}`;
}

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
  const type: DraftType = a.action.type === "tweet" ? "tweet" : "post";
  // The account the action names (bound when it was asked); an older approval: the network's default.
  const handle = a.action.account
    ? accountLabel(a.action.account)
    : (await platformAccounts(d, me.id)).find((p) => PLATFORM_NAMES[p.provider] === PLATFORM_NAMES[type])?.handle;
  const dest = destination(type, handle, a.action.account?.network);
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

  const when = (d: Date) => (
    <>
      {formatInZone(d, me.timezone)}
      {me.timezone === "UTC" ? null : (
        <>
          <br />
          <span className="muted">{formatUtc(d)}</span>
        </>
      )}
    </>
  );
  const at = actsAt(a.action);
  const scheduled = at ? new Date(at) : null;
  // An edit of a scheduled draft: the owner compares the two versions; the time stays.
  const edit = a.operation === "update_draft" && a.proposed;
  // Alt text, page counts and file names of every image and document shown below.
  const meta = await mediaMeta(d, me.id, attachmentUrls(a.attachments, edit ? edit.attachments : null));
  const what = a.action.type === "tweet" ? "this tweet" : "this post";
  // What X charges for it, and the replies X may refuse, before the owner decides.
  const shown = edit ? { body: edit.body, attachments: edit.attachments } : { body: a.body, attachments: a.attachments };
  const texts = { body: shown.body, thread: shown.attachments?.thread.map((p) => p.text), firstComment: shown.attachments?.first_comment };
  const x = xFactsOf(dest, a.operation, texts, config());
  const price = x?.sentence;
  const replies = x?.replies?.message;
  // The X account's month against its cap, as preview_publish says it.
  const xAccount = x && a.action.account?.network === "x" ? await ownAccount(d, me.id, a.action.account.id) : null;
  const month = xAccount && x ? await monthBefore(d, xAccount, x.price.micros, now) : null;

  return (
    <OwnerShell email={me.email} userId={me.id} wide={!!edit}>
      <h1>{headline(a.appName, a.operation, type, dest)}</h1>
      {status ? (
        <p className={status.tone === "ok" ? "ok-box" : "error-box"} role={status.tone === "ok" ? "status" : "alert"}>
          {status.text}
        </p>
      ) : null}
      <section className="card" aria-labelledby="action">
        <h2 id="action">The exact action</h2>
        <dl className="facts">
          <AskedFor a={a} />
          <dt>Platform</dt>
          <dd>
            {dest.account}
            {dest.sandbox ? <SandboxNote networks={sandboxNetworks([type])} /> : null}
          </dd>
          {price ? (
            <>
              <dt>Cost on X</dt>
              <dd data-testid="x-price">
                {price}
                {replies ? <p className="muted">{replies}</p> : null}
              </dd>
              {month ? (
                <>
                  <dt>This month on X</dt>
                  <dd data-testid="x-month">
                    About {dollars(month.spent)} spent{month.cap === null ? "" : ` of its ${dollars(month.cap)} cap`}; about {dollars(month.after)} with this.
                  </dd>
                </>
              ) : null}
            </>
          ) : null}
          {edit ? null : (
            <>
              <dt>Title</dt>
              <dd>{a.action.title}</dd>
            </>
          )}
          <dt>When</dt>
          <dd>
            {edit && scheduled ? (
              <>Stays scheduled for {when(scheduled)}</>
            ) : scheduled ? (
              when(scheduled)
            ) : (
              <>
                As soon as {a.appName} repeats its request, before {when(a.expiresAt)}
              </>
            )}
          </dd>
        </dl>
        {edit ? (
          <EditComparison
            current={{ title: a.action.title, body: a.body, imageUrl: a.imageUrl, attachments: a.attachments }}
            proposed={{ title: edit.title, body: edit.body, imageUrl: edit.image_url, attachments: edit.attachments }}
            meta={meta}
          />
        ) : (
          <>
            <h3>Full text</h3>
            <div className="post-text">{a.body}</div>
            {a.attachments ? (
              <Attachments a={a.attachments} meta={meta} what={what} />
            ) : a.imageUrl ? (
              <>
                <h3>Image</h3>
                <AttachedImage url={a.imageUrl} alt={`Image of ${what}`} />
              </>
            ) : null}
          </>
        )}
        {a.tweets.length ? (
          <>
            <h3>Its tweets are deleted with it</h3>
            <ul>
              {a.tweets.map((t, i) => (
                <li key={i}>
                  {STATUS_WORDS[t.status] ?? t.status}: {t.body.length > 140 ? `${t.body.slice(0, 140)}…` : t.body}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {findOperation(a.operation)?.approval?.irreversible ? (
          <p>
            <strong>This cannot be undone.</strong>
          </p>
        ) : null}
      </section>
      {open ? (
        <form action={decide.bind(null, a.id)} className="actions">
          <input type="hidden" name="csrf" value={csrfToken(me.id, `confirm:${a.id}`)} />
          <input type="hidden" name="key" value={formKey()} />
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
