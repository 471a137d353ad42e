import type { DraftType } from "@/lib/domain/drafts/drafts";
import { field, mediaFields, sentMedia, sentParts } from "./form";

// The composer's form (composer.tsx) as the operations take it: new drafts as create_draft's
// inputs, an edited one as update_draft's fields (save_draft saves only what changed).

/** The draft the composer edits ("post:<id>" or "tweet:<id>"), or null for a new one. */
export function editedDraft(form: FormData): { type: DraftType; id: string } | null {
  const m = /^(post|tweet):(.+)$/.exec(field(form, "edit"));
  return m ? { type: m[1] as DraftType, id: m[2] } : null;
}

/** The fields of fetch_item's answer the composer shows and saves. */
export type ComposedItem = {
  body?: string | null;
  image_urls?: string[];
  document_url?: string | null;
  document_title?: string | null;
  thread?: { text: string; image_urls?: string[] }[];
  first_comment?: string | null;
};

/** The descriptions typed beside the files that go with `type`. */
export function altsOf(type: DraftType | "both", form: FormData) {
  const media = sentMedia(form);
  const files = type === "post" ? media.post : type === "tweet" ? media.parts.flat() : [...media.post, ...media.parts.flat()];
  return files.filter((m) => !m.pdf).map(({ url, alt }) => ({ url, alt }));
}

/** What the composer sent for a draft of `type`: its text, files, thread and first comment, as the draft should hold them. */
export function composedFields(type: DraftType, form: FormData, parts = sentParts(form)) {
  const media = sentMedia(form);
  const comment = field(form, "first_comment").trim() || null;
  if (type === "post") {
    const m = mediaFields("post", media.post);
    return {
      body: field(form, "post_body").replace(/\r\n/g, "\n"),
      image_urls: m.image_urls ?? [],
      document_url: m.document_url ?? null,
      document_title: m.document_title ?? null,
      first_comment: comment,
    };
  }
  const [first, ...rest] = parts;
  const images = (i: number) => mediaFields("tweet", media.parts[i] ?? []).image_urls ?? [];
  return {
    body: first ?? "",
    image_urls: images(0),
    thread: rest.map((text, i) => ({ text, image_urls: images(i + 1) })),
    first_comment: comment,
  };
}
