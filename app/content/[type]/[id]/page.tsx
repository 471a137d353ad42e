import { AppOrigin } from "@/components/asking-app";
import Link from "next/link";
import { notFound } from "next/navigation";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { formKey } from "@/lib/transports/owner/door";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { pendingApprovals } from "@/lib/domain/accounts/connections";
import { accountLabel, draftAccount, listAccounts } from "@/lib/domain/accounts/accounts";
import { draftHistory } from "@/lib/domain/drafts/history";
import { linkedDrafts, ownerContext, ownerDraft } from "@/lib/domain/owner/owner";
import { ensureLinkCard } from "@/lib/domain/drafts/link-card";
import { isUuid } from "@/lib/core/ids";
import { ActionForm } from "@/components/action-form";
import { OPERATION_WORDS, STATUS_TONE, STATUS_WORDS, formatInZone, pickerStart, zonedParts } from "@/components/format";
import { Attachments } from "@/components/draft-media";
import { History } from "@/components/history";
import { ItemForm } from "@/components/item-form";
import { MetricsHistory } from "@/components/post-metrics";
import { metricsHistory } from "@/lib/domain/metrics/read";
import { attachmentUrls, mediaMeta } from "@/lib/domain/media/media";
import { OwnerShell } from "@/components/owner-shell";
import { PostPreview } from "@/components/post-preview";
import { SandboxNote } from "@/components/sandbox-note";
import { destination, publishedTo, sandboxNetworks } from "@/lib/adapters/platforms/destination";
import { WhenPicker } from "@/components/when-picker";
import { autosave, editCard, itemAction, remove, retryComment, settle } from "./actions";
import { FirstComment } from "./first-comment";
import { LinkCardView } from "@/components/link-card";
import { networkNamed, networkOfDraft } from "@/lib/domain/networks";

export const dynamic = "force-dynamic";
export const metadata = { title: "Draft · Contentio" };

/** The other side of a post written for both networks, never calling the sandbox LinkedIn or X. */
const alsoOn = (other: "post" | "tweet") => {
  const dest = destination(other);
  return dest.sandbox ? `Also as a ${dest.badge.toLowerCase()}:` : `Also ${dest.where}:`;
};

const DONE: Record<string, string> = {
  saved: "Saved.",
  queued: "Added to the queue: it takes the next free slot.",
  scheduled: "Scheduled.",
  rescheduled: "Rescheduled.",
  unscheduled: "Unscheduled: it is a draft again and will not be published.",
  published: "Published.",
  // The text typed into the editor was saved first.
  "saved-queued": "Saved and added to the queue: it takes the next free slot.",
  "saved-scheduled": "Saved and scheduled.",
  "saved-rescheduled": "Saved and rescheduled.",
  "saved-unscheduled": "Saved and unscheduled: it is a draft again and will not be published.",
  "saved-published": "Saved and published.",
  "confirmed-posted": "Marked as published with the link you gave.",
  "confirmed-not-posted": "Marked as failed: it did not go out. You can publish it again.",
  "comment-posted": "The first comment is posted.",
  // A calendar drop of content the owner had not seen as it is now opens it instead.
  "review-first": "An app wrote or changed this since you last saw it in full, so the calendar did not move it. Read it here, then schedule it below.",
};
// After "Publish now" reached the platform without a clear success.
const AFTER_PUBLISH: Record<string, string> = {
  "publish-unknown": "The platform did not confirm the post. Check your account, then answer below whether it went out.",
  "publish-failed": "Publishing failed; nothing was posted. The reason is below.",
  "publish-scheduled": "The platform could not take it right now; nothing was posted. It will be retried automatically for up to 30 minutes.",
  "comment-failed": "The first comment was not posted again; the reason is below.",
  "comment-unknown": "The platform did not confirm the first comment. Check the post before trying again.",
  "card-saved": "The link card was saved; the post goes out with it.",
};

export default async function ItemPage({
  params,
  searchParams,
}: {
  params: Promise<{ type: string; id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { type, id } = await params;
  const { done } = await searchParams;
  if (type !== "post" && type !== "tweet") notFound();
  const me = await requireOwner(`/content/${type}/${id}`, { complete: true });
  const d = await db();
  // A LinkedIn post's link card is read before the owner sees the post (and approves it).
  if (type === "post" && isUuid(id)) await ensureLinkCard(d, ports(), me.id, id);
  const found = await ownerDraft(ownerContext(d, me, ports()), type, id);
  if (!found) notFound();
  const { item, record, shown, card } = found;
  const ctx = ownerContext(d, me, ports());
  const [history, accounts, pending, linked] = await Promise.all([
    draftHistory(d, me.id, type, id),
    listAccounts(d, me.id),
    pendingApprovals(d, me.id),
    linkedDrafts(ctx, type, id, record.postDraftId),
  ]);
  // Its own account, else its network's default: a tweet's is on X or on Bluesky.
  const account = draftAccount(accounts, type, (item as { account_id?: string | null }).account_id);
  const handle = account ? accountLabel(account) : null;
  const dest = destination(type, handle, account?.network);
  const waiting = pending.filter((p) => p.action.id === id);
  const csrf = csrfToken(me.id, `item:${id}`);
  const status = item.status;
  const editable = status === "draft" || status === "scheduled" || status === "failed";
  const at = item.scheduled_for ? new Date(item.scheduled_for) : null;
  const initial = pickerStart(at, me.timezone);
  // Every form here: its CSRF token, and the key the page made when it was drawn (a second
  // press sent before the page comes back answers as the first, and does nothing again).
  const key = formKey();
  const csrfInput = (
    <>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="key" value={key} />
    </>
  );
  // What this page shows: publishing, scheduling and deleting are refused if it has changed.
  const shownInput = <input type="hidden" name="shown" value={shown} />;
  // Its network's word for it: a tweet on X, a post on Bluesky.
  const net = account ? networkNamed(account.network) : networkOfDraft(type);
  const what = net.postNoun;
  // Images, document, thread parts and first comment, shown here; changed in the composer (Edit).
  const m = item as {
    image_url?: string | null;
    image_urls?: string[];
    document_url?: string;
    document_title?: string;
    thread?: { text: string; image_urls: string[] }[];
    first_comment?: string;
    first_comment_result?: { status: "posting" | "posted" | "failed" | "unknown"; url: string | null; reason: string | null };
  };
  const media = {
    image_urls: m.image_urls ?? [],
    document: m.document_url ? { url: m.document_url, title: m.document_title ?? null } : null,
    thread: m.thread ?? [],
  };
  const hasMedia = media.image_urls.length > 0 || !!media.document || media.thread.length > 0;
  const meta = hasMedia ? await mediaMeta(d, me.id, attachmentUrls(media)) : {};

  return (
    <OwnerShell email={me.email} userId={me.id} current="/content">
      <p>
        <Link href="/content">← All content</Link>
      </p>
      <h1>{item.title}</h1>
      <p className="meta">
        <span className="badge net">{dest.badge}</span> <span className={`badge ${STATUS_TONE[status] ?? "net"}`}>{STATUS_WORDS[status] ?? status}</span>{" "}
        {at && (status === "scheduled" || status === "publishing") ? <>for {formatInZone(at, me.timezone)}</> : null}
        {status === "published" && record.publishedAt ? <>on {formatInZone(record.publishedAt, me.timezone)}</> : null}
      </p>
      <SandboxNote networks={sandboxNetworks([type])} />
      {linked.length ? (
        <p className="meta">
          {alsoOn(type === "post" ? "tweet" : "post")}{" "}
          {linked.map((l, i) => (
            <span key={l.id}>
              {i ? ", " : ""}
              <Link href={`/content/${l.type}/${l.id}`}>{l.title}</Link> ({STATUS_WORDS[l.status] ?? l.status})
            </span>
          ))}
        </p>
      ) : null}
      {done && DONE[done] ? (
        <p className="ok-box" role="status">
          {DONE[done]}
        </p>
      ) : null}
      {done && AFTER_PUBLISH[done] ? (
        <p className="error-box" role="alert">
          {AFTER_PUBLISH[done]}
        </p>
      ) : null}
      {waiting.map((p) => (
        <p key={p.id} className="attention">
          {p.appName} <AppOrigin app={p} /> asks for your approval to {OPERATION_WORDS[p.operation] ?? p.operation}.{" "}
          <a href={`/confirm/${p.id}`}>Review the request</a>
        </p>
      ))}

      {status === "published" && record.platformUrl ? (
        <p className="ok-box">
          It is live: <a href={record.platformUrl}>see it {publishedTo(type, record.platformUrl).where}</a>
        </p>
      ) : null}
      {status === "failed" ? (
        <p className="error-box">
          Publishing failed: {(record.failureReason ?? "no reason recorded").replace(/\.$/, "")}. Nothing was posted; you can schedule or publish it again.
        </p>
      ) : null}
      {status === "unknown" ? (
        <section className="card" aria-labelledby="unknown-h">
          <h2 id="unknown-h">Did it go out?</h2>
          <p>
            This {what} was not confirmed {dest.where}: {(record.failureReason ?? "no answer").replace(/\.$/, "")}. It may or may not be live. Look for it{" "}
            {dest.where}, then tell us what you found. It will not be posted again until you do.
          </p>
          <div className="inline-forms">
            <ActionForm action={settle.bind(null, type, id)} label="It went out" labelClass="btn primary" className="stack">
              {csrfInput}
              <input type="hidden" name="outcome" value="posted" />
              <div>
                <label htmlFor="url">
                  Link to the {what} {dest.where}
                </label>
                <input
                  id="url"
                  name="url"
                  type="text"
                  inputMode="url"
                  required
                  placeholder={
                    type === "post"
                      ? "https://www.linkedin.com/feed/update/…"
                      : net.id === "bluesky"
                        ? "https://bsky.app/profile/you/post/…"
                        : "https://x.com/you/status/…"
                  }
                />
              </div>
            </ActionForm>
            <ActionForm action={settle.bind(null, type, id)} label="It did not go out" labelClass="btn">
              {csrfInput}
              <input type="hidden" name="outcome" value="not_posted" />
            </ActionForm>
          </div>
        </section>
      ) : null}

      <section aria-labelledby="preview-h">
        <h2 id="preview-h">Preview</h2>
        <PostPreview
          type={type}
          text={item.body ?? ""}
          imageUrl={m.image_url ?? null}
          imageAlt={m.image_url ? meta[m.image_url]?.alt : undefined}
          name={me.name ?? me.email}
          handle={handle}
          sandbox={dest.sandbox}
          network={net.id}
        />
      </section>

      {hasMedia ? (
        <section aria-labelledby="media-h">
          <h2 id="media-h">{type === "tweet" && media.thread.length ? "Images and thread" : "Images and document"}</h2>
          <Attachments a={media} meta={meta} what={`this ${what}`} />
        </section>
      ) : null}

      {card?.note ? (
        <LinkCardView
          card={card.usable}
          note={card.note}
          edit={
            status === "draft" || status === "failed"
              ? {
                  action: editCard.bind(null, type, id),
                  hidden: (
                    <>
                      {csrfInput}
                      {shownInput}
                    </>
                  ),
                }
              : null
          }
        />
      ) : null}

      {m.first_comment ? (
        <FirstComment
          text={m.first_comment}
          result={m.first_comment_result}
          what={what}
          where={dest.where}
          retry={csrfInput}
          action={retryComment.bind(null, type, id)}
        />
      ) : null}

      {editable ? (
        <p>
          <Link className="btn" href={`/write/${type}/${id}`}>
            Edit in the composer
          </Link>{" "}
          <span className="help">Its text, {type === "post" ? "images or document" : "images, thread parts"} and first comment, with live previews.</span>
        </p>
      ) : null}

      {editable ? (
        <ItemForm
          action={itemAction.bind(null, type, id, me.timezone)}
          hidden={{ csrf, key, updated_at: item.updated_at ?? "", shown }}
          saved={{ ...(type === "post" && { title: item.title }), body: item.body ?? "" }}
          titleHelp="Only you see it; readers see only the text below."
          when={<WhenPicker date={initial.date} time={initial.time} today={zonedParts(new Date(), me.timezone).date} timeZone={me.timezone} />}
          scheduled={status === "scheduled"}
          publishQuestion={`Publish this ${what} to ${dest.account} now? It cannot be undone.`}
          autosave={status === "draft" ? autosave.bind(null, type, id) : undefined}
          timeZone={me.timezone}
          network={net.id}
        />
      ) : (
        <section aria-labelledby="text-h">
          <h2 id="text-h">Full text</h2>
          <div className="post-text">{item.body}</div>
        </section>
      )}

      {status === "published" ? (
        <section aria-labelledby="metrics-h">
          <h2 id="metrics-h">Engagement</h2>
          <MetricsHistory
            reads={await metricsHistory(d, me.id, type, id)}
            timeZone={me.timezone}
            firstRead={ports().config().METRICS_AFTER.split(",")[0].trim()}
          />
        </section>
      ) : null}

      <section aria-labelledby="history-h">
        <h2 id="history-h">History</h2>
        <History entries={history} created={record.createdAt} timeZone={me.timezone} />
      </section>

      {status !== "publishing" ? (
        <div className="actions">
          <ActionForm
            action={remove.bind(null, type, id)}
            label={status === "published" ? "Delete from here" : "Delete draft"}
            labelClass="btn danger"
            confirm={{
              // Deleting here never reaches the network: a published post stays there.
              question:
                status === "published"
                  ? `Delete this ${what}${type === "post" ? " and its tweets" : ""} from your content here? ` +
                    `It stays ${record.platformUrl ? publishedTo(type, record.platformUrl).where : "on the network"}: ` +
                    "delete it there if you want it gone. This cannot be undone."
                  : `Delete this ${what} draft${type === "post" ? " and its tweets" : ""}? This cannot be undone.`,
              label: "Delete",
              danger: true,
            }}
          >
            {csrfInput}
            {shownInput}
          </ActionForm>
        </div>
      ) : null}
    </OwnerShell>
  );
}
