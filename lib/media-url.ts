// Where an uploaded medium is served, and back: the one URL shape that image_url, image_urls
// and document_url accept, read by the operations (to check ownership) and by publishing (to
// load the bytes). Pure: no database, no configuration.

import { isUuid } from "./ids";

export const mediaUrl = (origin: string, id: string): string => `${origin}/media/${id}`;

/** The media id in `{origin}/media/{id}` of this service, or null for any other URL. */
export function mediaIdFromUrl(url: string, origin: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.origin !== new URL(origin).origin || u.search || u.hash) return null;
  const m = /^\/media\/([^/]+)$/.exec(u.pathname);
  return m && isUuid(m[1]) ? m[1].toLowerCase() : null;
}
