import twitter from "twitter-text";

// What X charges a self-serve (pay-per-use) app, per request or per resource: one table, read
// from X's pricing page, overridable by X_PRICES (lib/core/config.ts) when X changes it. Sums
// are kept in micro-dollars (integers), so a month of posts adds up without rounding drift.

/** Where and when the table was read (a price change is found by reading the page again). */
export const X_PRICES_SOURCE = {
  read: "2026-08-22",
  url: "https://docs.x.com/x-api/getting-started/pricing",
  note: "xdevplatform/docs at 2871328; the 2026-04-16 changelog entry: $0.015 a post, $0.20 with a URL from 2026-04-20, owned reads $0.001",
} as const;

/** X's prices in micro-dollars ($0.015 = 15_000). */
export type XPrices = {
  /** POST /2/tweets without a URL. */
  post: number;
  /** POST /2/tweets whose text contains a URL (since 2026-04-20). */
  postWithUrl: number;
  /** A post read (GET /2/tweets), per post returned. */
  postRead: number;
  /** An owned read (GET /2/users/{id}/tweets and the like, by the app's owner), per post returned. */
  ownedRead: number;
};

export const X_PRICES: XPrices = { post: 15_000, postWithUrl: 200_000, postRead: 5_000, ownedRead: 1_000 };

/** X_PRICES' keys: `post=0.015,url=0.20,read=0.005,owned=0.001` (dollars; any subset). */
export const X_PRICE_KEYS = { post: "post", url: "postWithUrl", read: "postRead", owned: "ownedRead" } as const;

export const MICROS = 1_000_000;
export const micros = (dollars: number) => Math.round(dollars * MICROS);

/** Dollars as the owner reads them: $0.20, $0.015, $1.23 (never rounded to nothing). */
export function dollars(m: number): string {
  const d = m / MICROS;
  const s = d >= 1 || d === 0 ? d.toFixed(2) : d.toFixed(3).replace(/0$/, "");
  return `$${s}`;
}

/** Whether X sees a URL in the text (twitter-text's rule, the one X counts a link's 23 characters by). */
export const hasUrl = (text: string) => twitter.extractUrls(text.normalize("NFC")).length > 0;

/** One post's price, and why. */
export type PostPrice = { micros: number; url: boolean };
export const postPrice = (text: string, p: XPrices): PostPrice => (hasUrl(text) ? { micros: p.postWithUrl, url: true } : { micros: p.post, url: false });

/** A draft's estimate: each part (a thread's too) and the first comment, each a POST /2/tweets. */
export type DraftPrice = { micros: number; parts: PostPrice[]; comment: PostPrice | null };

export function draftPrice(texts: { body: string; thread?: readonly string[] | null; firstComment?: string | null }, p: XPrices): DraftPrice {
  const parts = [texts.body, ...(texts.thread ?? [])].map((t) => postPrice(t, p));
  const comment = texts.firstComment ? postPrice(texts.firstComment, p) : null;
  return { micros: parts.reduce((s, x) => s + x.micros, 0) + (comment?.micros ?? 0), parts, comment };
}

/**
 * The sentence shown before the owner approves (the composer, the approval page, the MCP
 * approval text): "about $0.20 on X: it contains a link".
 */
export function priceSentence(price: DraftPrice): string {
  const all = [...price.parts, ...(price.comment ? [price.comment] : [])];
  const links = all.filter((x) => x.url).length;
  const head = `about ${dollars(price.micros)} on X`;
  if (all.length === 1) return links ? `${head}: it contains a link` : head;
  const what = price.parts.length > 1 ? `a thread of ${price.parts.length}${price.comment ? " and a first comment" : ""}` : "the post and its first comment";
  const linked = links === all.length ? "each contains" : `${links} contain${links === 1 ? "s" : ""}`;
  return `${head} for ${all.length} posts (${what})${links ? `; ${linked} a link` : ""}`;
}

/** A draft's texts as the price and the reply rule read them. */
export type PostedTexts = { body: string; thread?: readonly string[] | null; firstComment?: string | null };

/** What X charges for a draft, and what X may refuse of it, as everyone is shown them before publishing. */
export type XFacts = { price: DraftPrice; sentence: string; replies: { refused: boolean; message: string } | null };

/**
 * The one answer to what publishing costs on X and which of its replies X may refuse: read
 * by the approval page, the MCP approval text, confirmation_required's message and
 * preview_publish, so each says the same. Null when nothing goes to X (the sandbox, another
 * network, a deletion). `to.network` is the network's name (X).
 */
export function xFactsOf(
  to: { sandbox: boolean; network: string },
  operation: string,
  texts: PostedTexts,
  c: { xPrices: XPrices; X_REPLIES: "unknown" | "allowed" | "refused" },
): XFacts | null {
  if (to.sandbox || to.network !== "X" || operation === "delete_draft") return null;
  const price = draftPrice(texts, c.xPrices);
  return { price, sentence: priceSentence(price), replies: replyRule(texts, c.X_REPLIES) };
}

/**
 * The reply rule (X's changelog, 2026-02-23): a self-serve app may reply only where the
 * original post's author summoned the replying account. A thread's further parts and a first
 * comment are replies, to the account's own post, which X's docs do not say counts. Said
 * before approval unless the operator says X takes them (X_REPLIES=allowed).
 */
export function replyWarning(texts: PostedTexts, replies: "unknown" | "allowed" | "refused"): string | null {
  const thread = (texts.thread?.length ?? 0) > 0;
  if (replies === "allowed" || (!thread && !texts.firstComment)) return null;
  const what = thread && texts.firstComment ? "the thread's further parts and the first comment" : thread ? "the thread's further parts" : "the first comment";
  return (
    `X may refuse ${what}: since 2026-02-23 X lets self-serve apps reply only where the original post's author summoned the ` +
    `replying account (an @mention or a quote). The first post goes out either way; what X refuses is reported with X's reason.`
  );
}

/**
 * The reply rule as publishing applies it: with X_REPLIES=refused a thread's further parts and
 * a first comment are refused before anything is sent (refused: true); while unknown, the
 * warning of replyWarning; null when X takes them or there are none.
 */
export function replyRule(texts: PostedTexts, replies: "unknown" | "allowed" | "refused"): { refused: boolean; message: string } | null {
  if (replies !== "refused") {
    const warning = replyWarning(texts, replies);
    return warning ? { refused: false, message: warning } : null;
  }
  const thread = (texts.thread?.length ?? 0) > 0;
  const what = thread ? (texts.firstComment ? "a thread and a first comment" : "a thread") : texts.firstComment ? "a first comment" : null;
  if (!what) return null;
  return {
    refused: true,
    message:
      `X refuses replies from this service's app (X_REPLIES=refused: since 2026-02-23 X lets self-serve apps reply only where summoned), ` +
      `and this tweet has ${what}, which X takes as replies.`,
  };
}
