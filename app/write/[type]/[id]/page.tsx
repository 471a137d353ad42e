import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { attachmentUrls, mediaMeta, type MediaMeta } from "@/lib/domain/media/media";
import { ownerContext, ownerDraft } from "@/lib/domain/owner/owner";
import { OwnerShell } from "@/components/owner-shell";
import { LinkCardView } from "@/components/link-card";
import { ensureLinkCard } from "@/lib/domain/drafts/link-card";
import { isUuid } from "@/lib/core/ids";
import { Composer } from "../../composer";
import type { Draft, Editing } from "../../draft";
import type { Medium } from "../../media";
import { composerSetup, SandboxNotes } from "../../setup";
import type { ComposedItem } from "../../edit";

export const dynamic = "force-dynamic";
export const metadata = { title: "Edit · Contentio" };

// The item page's Edit: the composer on a draft that exists, with its text, files, thread and
// first comment, saved as update_draft saves an edit (actions.ts, edit.ts).

type Item = ComposedItem & { status: string; updated_at?: string; scheduled_for?: string | null; account_id?: string | null };

/** A stored file as the composer lists it. */
const stored = (meta: MediaMeta, kind: Medium["kind"], url: string, title?: string | null): Medium => ({
  key: url,
  name: meta[url]?.filename ?? (kind === "pdf" ? "document.pdf" : "image"),
  kind,
  url,
  alt: meta[url]?.alt ?? "",
  ...(title && { title }),
});

export default async function EditPage({ params }: { params: Promise<{ type: string; id: string }> }) {
  const { type, id } = await params;
  if (type !== "post" && type !== "tweet") notFound();
  const me = await requireOwner(`/write/${type}/${id}`, { complete: true });
  const d = await db();
  // A LinkedIn post's link card, for the saved text (the item page changes it).
  if (type === "post" && isUuid(id)) await ensureLinkCard(d, ports(), me.id, id);
  const found = await ownerDraft(ownerContext(d, me, ports()), type, id);
  if (!found) notFound();
  const item = found.item as Item;
  // Published, publishing or unknown: what it is on the network is no longer the draft's to change.
  if (!["draft", "scheduled", "failed"].includes(item.status)) redirect(`/content/${type}/${id}`);

  const images = item.image_urls ?? [];
  const thread = item.thread ?? [];
  const doc = item.document_url ? { url: item.document_url, title: item.document_title ?? null } : null;
  const meta = await mediaMeta(
    d,
    me.id,
    attachmentUrls({ image_urls: images, document: doc, thread: thread.map((p) => ({ ...p, image_urls: p.image_urls ?? [] })) }),
  );
  const setup = await composerSetup(me, { at: item.scheduled_for ? new Date(item.scheduled_for) : null });
  // As the account choice shows it: "" for the default, as for an account it does not offer
  // (no longer connected), so that saving never changes the account unasked.
  const own = setup.targets.find((t) => t.type === type)?.accounts.find((a) => a.id === item.account_id);
  const accountWas = own && !own.default ? own.id : "";
  const draft: Draft = {
    toPost: type === "post",
    toTweet: type === "tweet",
    postAccount: type === "post" ? accountWas : "",
    tweetAccount: type === "tweet" ? accountWas : "",
    post: type === "post" ? (item.body ?? "") : "",
    parts: type === "tweet" ? [item.body ?? "", ...thread.map((p) => p.text)] : [""],
    comment: item.first_comment ?? "",
    postMedia: type === "post" ? (doc ? [stored(meta, "pdf", doc.url, doc.title)] : images.map((u) => stored(meta, "image", u))) : [],
    partMedia: type === "tweet" ? [images, ...thread.map((p) => p.image_urls ?? [])].map((l) => l.map((u) => stored(meta, "image", u))) : [[]],
  };
  const editing: Editing = { type, id, shown: found.shown, updatedAt: item.updated_at ?? "", accountWas, draft, autosave: item.status === "draft" };
  const what = type === "post" ? "post" : "tweet";
  return (
    <OwnerShell email={me.email} userId={me.id} current="/content" wide>
      <p>
        <Link href={`/content/${type}/${id}`}>← Back to the {what}</Link>
      </p>
      <h1>
        Edit the {what}
        {item.status === "scheduled" ? " (scheduled)" : ""}
      </h1>
      {item.status === "scheduled" ? <p className="help">It stays scheduled: saving changes what goes out at its time.</p> : null}
      <SandboxNotes types={[type]} />
      <Composer {...setup} editing={editing} />
      {found.card?.note ? <LinkCardView card={found.card.usable} note={`${found.card.note} It is read for the saved text.`} edit={null} /> : null}
    </OwnerShell>
  );
}
