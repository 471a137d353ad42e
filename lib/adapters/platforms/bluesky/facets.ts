import { resolveHandle } from "./identity";

// Rich text (app.bsky.richtext.facet): links, mentions and hashtags marked by their place in
// the text in bytes of UTF-8 (not JavaScript's UTF-16 units), found as Bluesky's own app finds
// them (@atproto/api's RichText). A mention names a DID: each handle is resolved, and one
// nobody answers for stays plain text.

export type Facet = {
  index: { byteStart: number; byteEnd: number };
  features: (
    | { $type: "app.bsky.richtext.facet#link"; uri: string }
    | { $type: "app.bsky.richtext.facet#mention"; did: string }
    | { $type: "app.bsky.richtext.facet#tag"; tag: string }
  )[];
};

/** The facets of `text` (already as it is sent: NFC), mentions resolved; none: undefined. */
export async function facetsOf(text: string): Promise<Facet[] | undefined> {
  // Loaded with the first post to Bluesky: most processes never publish there.
  const { RichText } = await import("@atproto/api");
  const rt = new RichText({ text });
  rt.detectFacetsWithoutResolution();
  const out: Facet[] = [];
  for (const f of (rt.facets ?? []) as Facet[]) {
    const feature = f.features[0];
    if (feature?.$type === "app.bsky.richtext.facet#mention") {
      // Until resolved, RichText leaves the handle where the DID goes.
      const did = await resolveHandle(feature.did.toLowerCase(), false).catch(() => null);
      if (did) out.push({ index: f.index, features: [{ $type: feature.$type, did }] });
    } else if (feature) out.push({ index: f.index, features: [feature] });
  }
  return out.length ? out.sort((a, b) => a.index.byteStart - b.index.byteStart) : undefined;
}

/** The first link of the text (for a link card), or null. */
export const firstLink = (facets: Facet[] | undefined): string | null => {
  for (const f of facets ?? []) for (const x of f.features) if (x.$type === "app.bsky.richtext.facet#link") return x.uri;
  return null;
};
