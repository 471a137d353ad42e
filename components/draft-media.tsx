import type { ApprovalAttachments } from "@/drizzle/schema";
import type { MediaMeta } from "@/lib/domain/media/media";
import { servedAt } from "@/lib/core/media-url";

// A draft's images, PDF document and thread parts, read-only: on the approval page (current
// and proposed) and the draft's own page. Every image has a text alternative: the alt text
// given at upload, else where it sits ("Image 2 of 3 of part 4").

export type { MediaMeta };

/**
 * One image; the address is shown too, since it may not load. The description given at
 * upload is shown as text, not only as the image's alt: it is posted with the image (public
 * behind X's and LinkedIn's "ALT"), so the owner approves it like the text.
 */
export function AttachedImage({ url, alt, described }: { url: string; alt: string; described?: string | null }) {
  return (
    <figure className="attached-image">
      {/* A plain img: the address is the draft's own, shown as it is, never optimised or fetched by the server. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={servedAt(url)} alt={alt} />
      <figcaption>
        {described ? <span className="described">Posted with the description: “{described}”</span> : null}
        <a href={servedAt(url)}>{url}</a>
      </figcaption>
    </figure>
  );
}

export function ImageList({ urls, meta, where }: { urls: string[]; meta: MediaMeta; where: string }) {
  if (!urls.length) return null;
  return (
    <ul className="media-list">
      {urls.map((url, i) => (
        <li key={`${i}:${url}`}>
          <AttachedImage
            url={url}
            alt={meta[url]?.alt ?? (urls.length === 1 ? `Image of ${where}` : `Image ${i + 1} of ${urls.length} of ${where}`)}
            described={meta[url]?.alt}
          />
        </li>
      ))}
    </ul>
  );
}

export function DocumentLink({ doc, meta }: { doc: { url: string; title: string | null }; meta: MediaMeta }) {
  const m = meta[doc.url];
  const pages = m?.pages ? `${m.pages} page${m.pages === 1 ? "" : "s"}` : null;
  return (
    <p className="document">
      <span className="badge">PDF</span> <strong>{doc.title ?? "Untitled document"}</strong>
      {pages ? ` · ${pages}` : ""} · <a href={servedAt(doc.url)}>Open {m?.filename ?? "the document"}</a>
    </p>
  );
}

/** The parts after the first, numbered from 2 as they will be posted. */
export function ThreadParts({ parts, meta }: { parts: ApprovalAttachments["thread"]; meta: MediaMeta }) {
  return (
    <ol className="thread-parts" start={2}>
      {parts.map((p, i) => (
        <li key={i} aria-label={`Part ${i + 2} of ${parts.length + 1}`}>
          <div className="post-text">{p.text}</div>
          <ImageList urls={p.image_urls} meta={meta} where={`part ${i + 2}`} />
        </li>
      ))}
    </ol>
  );
}

/** Images, document, thread and first comment of one version, each under its own heading (level `h`). */
export function Attachments({ a, meta, what, h = 3 }: { a: ApprovalAttachments; meta: MediaMeta; what: string; h?: 3 | 4 }) {
  const H = `h${h}` as "h3" | "h4";
  return (
    <>
      {a.image_urls.length ? (
        <>
          <H>{a.image_urls.length === 1 ? "Image" : `Images (${a.image_urls.length})`}</H>
          <ImageList urls={a.image_urls} meta={meta} where={what} />
        </>
      ) : null}
      {a.document ? (
        <>
          <H>Document</H>
          <DocumentLink doc={a.document} meta={meta} />
        </>
      ) : null}
      {a.thread.length ? (
        <>
          <H>Thread: {a.thread.length + 1} parts in all (the text above is part 1)</H>
          <ThreadParts parts={a.thread} meta={meta} />
        </>
      ) : null}
      {a.first_comment ? (
        <>
          <H>First comment (posted right after it)</H>
          <div className="post-text">{a.first_comment}</div>
        </>
      ) : null}
      {a.link_card ? (
        <>
          <H>Link card (shown under the post on LinkedIn)</H>
          <p>
            <strong>{a.link_card.title}</strong>
            {a.link_card.description ? ` · ${a.link_card.description}` : ""} · {a.link_card.source}
            {a.link_card.image ? " · with the page's picture" : " · no picture"}
          </p>
        </>
      ) : null}
    </>
  );
}
