// What an approval shows of the content: the full text and its image, and for an edit of a
// scheduled draft the current and the proposed version side by side, so the owner approves
// exactly what will go out.

import type { ApprovalAttachments } from "@/drizzle/schema";
import { AttachedImage, Attachments, type MediaMeta } from "./draft-media";

export { AttachedImage };

/** One version of the content; attachments are absent on approvals made before they existed. */
export type Version = { title: string; body: string; imageUrl: string | null; attachments?: ApprovalAttachments | null };

const NONE: ApprovalAttachments = { image_urls: [], document: null, thread: [] };

function Part({ label, changed }: { label: string; changed: boolean }) {
  return (
    <h4>
      {label}
      {changed ? (
        <>
          {" "}
          <span className="badge">changed</span>
        </>
      ) : null}
    </h4>
  );
}

type BoxProps = { id: string; heading: string; v: Version; other: Version; proposed?: boolean; meta: MediaMeta };

function VersionBox({ id, heading, v, other, proposed, meta }: BoxProps) {
  // Only the proposed side marks what differs: the owner reads the change where it is new.
  const changed = (k: keyof Version) => !!proposed && JSON.stringify(v[k] ?? null) !== JSON.stringify(other[k] ?? null);
  const a = v.attachments;
  const empty = a && !a.image_urls.length && !a.document && !a.thread.length && !a.first_comment && !a.link_card;
  return (
    <section className={proposed ? "proposed" : undefined} aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      <Part label="Title" changed={changed("title")} />
      <p>{v.title}</p>
      <Part label="Text" changed={changed("body")} />
      <div className="post-text">{v.body}</div>
      {a ? (
        <>
          <Part label="Images, document, thread and first comment" changed={changed("attachments")} />
          {empty ? (
            <p className="muted">No images, document, thread parts or first comment</p>
          ) : (
            <Attachments a={a} meta={meta} what={`the ${heading.toLowerCase()} version`} h={4} />
          )}
        </>
      ) : (
        <>
          <Part label="Image" changed={changed("imageUrl")} />
          {v.imageUrl ? <AttachedImage url={v.imageUrl} alt={`Image of the ${heading.toLowerCase()} version`} /> : <p className="muted">No image</p>}
        </>
      )}
    </section>
  );
}

export function EditComparison({ current, proposed, meta = {} }: { current: Version; proposed: Version; meta?: MediaMeta }) {
  // An approval that lists attachments on one side lists them on both (an older one: neither).
  const both = !!(current.attachments || proposed.attachments);
  const fill = (v: Version): Version => (both ? { ...v, attachments: v.attachments ?? NONE } : v);
  return (
    <div className="compare">
      <VersionBox id="current-version" heading="Current" v={fill(current)} other={fill(proposed)} meta={meta} />
      <VersionBox id="proposed-version" heading="Proposed" v={fill(proposed)} other={fill(current)} proposed meta={meta} />
    </div>
  );
}
