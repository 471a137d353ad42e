import type { ApprovalAttachments } from "@/drizzle/schema";
import type { MediaMeta } from "@/lib/domain/media/media";

// The images, document, thread parts and first comment of an approval as lines of an elicitation form's
// text, so an owner approving in the client sees everything the approval page shows.

/** `meta`: the uploads' alt text (posted with each image) and a document's page count, by address. */
export function attachmentLines(a: ApprovalAttachments, meta: MediaMeta = {}): string[] {
  const lines: string[] = [];
  const described = (u: string) => (meta[u]?.alt ? `, posted with the description "${meta[u].alt}"` : "");
  const images = (urls: string[], indent = "") => urls.map((u, i) => `${indent}Image ${i + 1} of ${urls.length}: ${u}${described(u)}`);
  if (a.image_urls.length) lines.push("", ...images(a.image_urls));
  if (a.document) {
    const n = meta[a.document.url]?.pages;
    lines.push("", `Document: ${a.document.title ?? "(untitled)"}${n ? ` (${n} page${n === 1 ? "" : "s"})` : ""}: ${a.document.url}`);
  }
  a.thread.forEach((p, i) => {
    lines.push("", `Thread part ${i + 2} of ${a.thread.length + 1}:`, p.text, ...images(p.image_urls, "  "));
  });
  if (a.first_comment) lines.push("", "First comment (posted right after it):", a.first_comment);
  if (a.link_card) {
    const c = a.link_card;
    lines.push(
      "",
      `Link card (shown under the post on LinkedIn): ${c.title}${c.description ? ` · ${c.description}` : ""} · ` +
        `${c.source}${c.image ? ` · picture ${c.image}` : ""}`,
    );
  }
  return lines;
}

const same = (x: ApprovalAttachments | null | undefined, y: ApprovalAttachments | null | undefined) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

/** An edit's proposed attachments, only when they differ from the current ones. */
export function proposedAttachmentLines(current: ApprovalAttachments | null, proposed: ApprovalAttachments | undefined, meta?: MediaMeta) {
  if (!proposed || same(current, proposed)) return [];
  const lines = attachmentLines(proposed, meta);
  return ["", "Proposed images, document, thread parts and first comment:", ...(lines.length ? lines.slice(1) : ["none"])];
}
