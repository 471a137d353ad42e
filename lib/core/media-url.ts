// Where an uploaded medium is served, and back: the one URL shape that image_url, image_urls
// and document_url accept, read by the operations (to check ownership) and by publishing (to
// load the bytes). Pure: no database, no configuration.

import { isUuid } from "./ids";

export const mediaUrl = (origin: string, id: string): string => `${origin}/media/${id}`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function idIn(u: URL): string | null {
  if (u.search || u.hash) return null;
  const m = /^\/media\/([^/]+)$/.exec(u.pathname);
  return m && isUuid(m[1]) ? m[1].toLowerCase() : null;
}

/** The media id in `{origin}/media/{id}` of this service, or null for any other URL. */
export function mediaIdFromUrl(url: string, origin: string): string | null {
  const u = parse(url);
  return u && u.origin === new URL(origin).origin ? idIn(u) : null;
}

/**
 * The media id of an address a draft already stores, whatever its origin: it was this
 * service's when it was written (checked then), and APP_URL may have changed since. Only for
 * addresses read back from drafts; what a caller sends is checked with mediaIdFromUrl.
 */
export function storedMediaId(url: string): string | null {
  const u = parse(url);
  return u && idIn(u);
}

/** Where the owner's pages load a stored address from: an upload from this origin, whichever origin the draft names. */
export function servedAt(url: string): string {
  const id = storedMediaId(url);
  return id ? `/media/${id}` : url;
}
