import type { DraftType } from "@/lib/domain/drafts/drafts";

// What the composer's form sends (composer.tsx), read the same way for a new draft and for an
// edit of one (actions.ts).

export const field = (form: FormData, k: string) => String(form.get(k) ?? "");

export type Sent = { url: string; alt: string; pdf?: boolean; title?: string };
const isSent = (m: unknown): m is Sent => !!m && typeof (m as Sent).url === "string" && typeof (m as Sent).alt === "string";

/** The files as the composer sent them (media.tsx): the post's, and each thread part's. */
export function sentMedia(form: FormData): { post: Sent[]; parts: Sent[][] } {
  try {
    const v = JSON.parse(field(form, "media"));
    const list = (l: unknown) => (Array.isArray(l) ? l.filter(isSent) : []);
    return { post: list(v?.post), parts: Array.isArray(v?.parts) ? v.parts.map(list) : [] };
  } catch {
    return { post: [], parts: [] };
  }
}

/** The media fields of create_draft for these files. */
export function mediaFields(type: DraftType, files: Sent[]): { image_urls?: string[]; document_url?: string; document_title?: string } {
  const doc = type === "post" ? files.find((m) => m.pdf) : undefined;
  if (doc) return { document_url: doc.url, ...(doc.title?.trim() && { document_title: doc.title.trim() }) };
  const images = files.filter((m) => !m.pdf).map((m) => m.url);
  return images.length ? { image_urls: images } : {};
}

/** The thread's parts as the composer sent them: a JSON list of strings, else none. */
export function sentParts(form: FormData): string[] {
  try {
    const v = JSON.parse(field(form, "thread"));
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === "string").map((p) => p.replace(/\r\n/g, "\n")) : [];
  } catch {
    return [];
  }
}
