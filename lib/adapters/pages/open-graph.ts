import { checkedRequester, type CheckedAnswer, type CheckedRequester } from "@/lib/adapters/webhooks/checked-request";
import type { PageCard } from "@/lib/domain/ports";

// A link card is made by the client, not by the network (Bluesky's app.bsky.embed.external,
// LinkedIn's article content): from the page's Open Graph tags (og:title, og:description,
// og:image; else its <title> and description), read through the checked request (no private
// addresses, a few redirects, each checked again), within a size and a time. A small strict
// parser of <meta> and <title> is enough: nothing else of the page is read. A page that cannot
// be read gets no card; an image that cannot be read, a card without a picture.

export type Card = { uri: string; title: string; description: string; image: Uint8Array | null };

/** What a page says of itself: its card's title and description, and its picture's address. */
export type PageFacts = { title: string; description: string; imageUrl: string | null };

const PAGE_BYTES = 512 * 1024;
const IMAGE_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 5000;
const REDIRECTS = 3;

export type FollowOptions = {
  maxBytes: number;
  accept: string;
  /** For all the hops together. */
  timeoutMs: number;
  /** For each hop, within that. */
  hopMs?: number;
  agent?: string;
  /** The checked request to use (tests inject a resolver and an origin). */
  request?: CheckedRequester;
};

/**
 * A GET that follows up to REDIRECTS redirects, each target checked like the first, all within
 * the time given; the final URL with the answer, or null past REDIRECTS.
 */
export async function follow(url: string, o: FollowOptions): Promise<{ url: string; answer: CheckedAnswer } | null> {
  const request = o.request ?? checkedRequester();
  const deadline = Date.now() + o.timeoutMs;
  let at = url;
  for (let hop = 0; hop <= REDIRECTS; hop++) {
    const timeoutMs = Math.max(1, Math.min(deadline - Date.now(), o.hopMs ?? o.timeoutMs));
    const headers = { accept: o.accept, "user-agent": o.agent ?? "Contentio (link preview)" };
    const answer = await request({ url: at, method: "GET", headers, timeoutMs, maxBytes: o.maxBytes });
    const location = answer.status !== null && answer.status >= 300 && answer.status < 400 ? answer.headers.location : undefined;
    if (!location) return { url: at, answer };
    at = new URL(location, at).toString();
  }
  return null;
}

/** A page or its card's picture, each hop within TIMEOUT_MS. */
async function get(url: string, maxBytes: number, accept: string) {
  return follow(url, { maxBytes, accept, hopMs: TIMEOUT_MS, timeoutMs: TIMEOUT_MS * (REDIRECTS + 1) });
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const decode = (s: string) =>
  s
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== "#") return ENTITIES[e.toLowerCase()] ?? m;
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    })
    .replace(/\s+/g, " ")
    .trim();

/** The attributes of each <meta> tag of the page, and its <title>. */
function metaOf(html: string): { meta: Map<string, string>; title: string | null } {
  const meta = new Map<string, string>();
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    const attrs = new Map<string, string>();
    for (const m of tag.matchAll(/([a-z:-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) attrs.set(m[1].toLowerCase(), m[3] ?? m[4] ?? m[5] ?? "");
    const key = (attrs.get("property") ?? attrs.get("name"))?.toLowerCase();
    const content = attrs.get("content");
    if (key && content !== undefined && !meta.has(key)) meta.set(key, decode(content));
  }
  const title = /<title\b[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  return { meta, title: title ? decode(title) : null };
}

const cut = (s: string, max: number) =>
  Array.from(s).length > max
    ? `${Array.from(s)
        .slice(0, max - 1)
        .join("")}…`
    : s;

/** What the page at `uri` says of itself, or why it cannot be read (a short plain reason). */
export async function readPage(uri: string): Promise<PageFacts | { error: string }> {
  const page = await get(uri, PAGE_BYTES, "text/html,application/xhtml+xml").catch(() => null);
  if (!page) return { error: "the page could not be reached" };
  const a = page.answer;
  if (a.status === null) return { error: a.error };
  if (a.status !== 200) return { error: `the page answered ${a.status}` };
  if (!/html/i.test(String(a.headers["content-type"] ?? "text/html"))) return { error: "the address is not a web page" };
  const { meta, title } = metaOf(a.body.toString("utf8"));
  const heading = meta.get("og:title") ?? meta.get("twitter:title") ?? title;
  if (!heading) return { error: "the page has no title" };
  const description = meta.get("og:description") ?? meta.get("twitter:description") ?? meta.get("description") ?? "";
  const imageUrl = meta.get("og:image") ?? meta.get("og:image:url") ?? meta.get("twitter:image");
  return {
    title: cut(heading, 300),
    description: cut(description, 1000),
    imageUrl: imageUrl && URL.canParse(imageUrl, page.url) ? new URL(imageUrl, page.url).toString() : null,
  };
}

/** The pages port: a page's card facts (the picture by its address), or why it cannot be read. */
export async function pageCard(uri: string): Promise<PageCard> {
  const page = await readPage(uri);
  return "error" in page ? page : { title: page.title, description: page.description, image: page.imageUrl };
}

/** The picture at `url` (a card's), read like the page; null when it cannot be read whole. */
export async function readImage(url: string): Promise<Uint8Array | null> {
  const got = await get(url, IMAGE_BYTES, "image/*").catch(() => null);
  return got?.answer.status === 200 && !got.answer.truncated ? new Uint8Array(got.answer.body) : null;
}

/** The card of the page at `uri`, or null when the page cannot be read or says nothing of itself. */
export async function readCard(uri: string): Promise<Card | null> {
  const page = await readPage(uri);
  if ("error" in page) return null;
  return { uri, title: page.title, description: page.description, image: page.imageUrl ? await readImage(page.imageUrl) : null };
}
