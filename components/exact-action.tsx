// One request's exact action as the owner decides on it: who asks, where it goes, what X
// charges, when, and the full content (every image with its alt text, the document, thread
// parts, first comment). The approval page shows one; a plan's review shows each of its
// requests with the same component, so a plan hides nothing a single approval shows.

import type { Db } from "@/lib/adapters/db";
import { actsAt } from "@/lib/domain/approvals/approvals";
import { platformAccounts, tweetsDeletedWith } from "@/lib/domain/accounts/connections";
import { accountLabel } from "@/lib/domain/accounts/accounts";
import { attachmentUrls, mediaMeta } from "@/lib/domain/media/media";
import type { DraftType } from "@/lib/domain/networks";
import { dollars, xFactsOf } from "@/lib/domain/networks/x/pricing";
import { monthBefore, ownAccount } from "@/lib/domain/spend/x-spend";
import { findOperation } from "@/lib/operations/registry";
import { destination, sandboxNetworks, type Destination } from "@/lib/adapters/platforms/destination";
import { config } from "@/lib/core/config";
import type { ApprovalAttachments, ProposedContent, StoredAction } from "@/drizzle/schema";
import { AskedFor } from "./asking-app";
import { AttachedImage, EditComparison } from "./approval-content";
import { Attachments, type MediaMeta } from "./draft-media";
import { PLATFORM_NAMES, STATUS_WORDS, formatInZone, formatUtc } from "./format";
import { SandboxNote } from "./sandbox-note";

/** What a request holds that the owner is shown (approvalForOwner, planRequests). */
export type ShownRequest = {
  id: string;
  operation: string;
  action: StoredAction;
  body: string;
  imageUrl: string | null;
  attachments: ApprovalAttachments | null;
  proposed: ProposedContent | null;
  expiresAt: Date;
  appName: string;
  selfRegistered: boolean;
  appFrom: string | null;
};

/** What the component needs besides the request, read once per request. */
export type ExactActionFacts = {
  type: DraftType;
  dest: Destination;
  meta: MediaMeta;
  price: string | null;
  replies: string | null;
  /** The X account's month against its cap, as preview_publish says it. */
  month: Awaited<ReturnType<typeof monthBefore>> | null;
  tweets: { body: string; status: string }[];
};

export function headline(app: string, op: string, type: DraftType, dest: Destination) {
  if (op === "publish_now") return `${app} wants to publish this ${type} to ${dest.name} now`;
  if (op === "schedule_content") return `${app} wants to schedule this ${type} ${dest.where}`;
  if (op === "delete_draft") return `${app} wants to delete this ${type} draft`;
  if (op === "update_draft") return `${app} wants to change this scheduled ${type} ${dest.where}`;
  return `${app} wants to run ${op}`;
}

/** Where it goes, its media's alt text and page counts, what X charges and the tweets a delete takes with it. */
export async function exactActionFacts(d: Db, userId: string, a: ShownRequest & { tweets?: ExactActionFacts["tweets"] }): Promise<ExactActionFacts> {
  const type: DraftType = a.action.type === "tweet" ? "tweet" : "post";
  // The account the action names (bound when it was asked); an older approval: the network's default.
  const handle = a.action.account
    ? accountLabel(a.action.account)
    : (await platformAccounts(d, userId)).find((p) => PLATFORM_NAMES[p.provider] === PLATFORM_NAMES[type])?.handle;
  const dest = destination(type, handle, a.action.account?.network);
  const edit = a.operation === "update_draft" && a.proposed;
  // Alt text, page counts and file names of every image and document shown.
  const meta = await mediaMeta(d, userId, attachmentUrls(a.attachments, edit ? edit.attachments : null));
  // What X charges for it, and the replies X may refuse, before the owner decides.
  const shown = edit ? { body: edit.body, attachments: edit.attachments } : { body: a.body, attachments: a.attachments };
  const texts = { body: shown.body, thread: shown.attachments?.thread.map((p) => p.text), firstComment: shown.attachments?.first_comment };
  const x = xFactsOf(dest, a.operation, texts, config());
  const xAccount = x && a.action.account?.network === "x" ? await ownAccount(d, userId, a.action.account.id) : null;
  const month = xAccount && x ? await monthBefore(d, xAccount, x.price.micros, new Date()) : null;
  return {
    type,
    dest,
    meta,
    price: x?.sentence ?? null,
    replies: x?.replies?.message ?? null,
    month,
    tweets: a.tweets ?? (await tweetsDeletedWith(d, userId, a.action)),
  };
}

/** A time in the owner's zone, and in UTC below it when that zone is another. */
function When({ at, timeZone }: { at: Date; timeZone: string }) {
  return (
    <>
      {formatInZone(at, timeZone)}
      {timeZone === "UTC" ? null : (
        <>
          <br />
          <span className="muted">{formatUtc(at)}</span>
        </>
      )}
    </>
  );
}

/**
 * The facts and the full content of one request (its headings from h3 down). `sandboxNote`:
 * false where the page says it once for many (a plan's review).
 */
export function ExactAction({ a, facts, timeZone, sandboxNote = true }: { a: ShownRequest; facts: ExactActionFacts; timeZone: string; sandboxNote?: boolean }) {
  const { type, dest, meta, price, replies, month, tweets } = facts;
  const at = actsAt(a.action);
  const scheduled = at ? new Date(at) : null;
  // An edit of a scheduled draft: the owner compares the two versions; the time stays.
  const edit = a.operation === "update_draft" && a.proposed;
  const what = type === "tweet" ? "this tweet" : "this post";
  return (
    <>
      <dl className="facts">
        <AskedFor a={a} />
        <dt>Platform</dt>
        <dd>
          {dest.account}
          {dest.sandbox && sandboxNote ? <SandboxNote networks={sandboxNetworks([type])} /> : null}
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
            <>
              Stays scheduled for <When at={scheduled} timeZone={timeZone} />
            </>
          ) : scheduled ? (
            <When at={scheduled} timeZone={timeZone} />
          ) : (
            <>
              As soon as {a.appName} repeats its request, before <When at={a.expiresAt} timeZone={timeZone} />
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
      {tweets.length ? (
        <>
          <h3>Its tweets are deleted with it</h3>
          <ul>
            {tweets.map((t, i) => (
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
    </>
  );
}
