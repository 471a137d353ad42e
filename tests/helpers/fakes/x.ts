import type http from "node:http";
import sharp from "sharp";
import type { FakeContext } from "./context";
import { xContract, X_OPENAPI_PATH, type XOperation } from "./x-contract";
import { bearer, json, type Upload } from "./state";

// X API v2 on the fake, held to X's OpenAPI document (x-contract.ts): a path or method the
// document lacks is refused and recorded; a token without the scopes of the operation's
// `security` gets X's 403; query, JSON and multipart bodies are validated against the
// operation's schemas, and so are the fake's own answers. What the document cannot say is
// encoded from X's prose docs (docs.x.com, media best practices): GIFs are processed after
// upload and a post naming unprocessed media is refused; a post carries up to 4 images or
// one GIF; the 24-hour post cap and its headers.

/** What the fake implements, by method and path template (the document says the rest). */
const IMPLEMENTED: Record<string, string> = {
  "POST /2/tweets": "createPosts",
  "POST /2/media/upload": "mediaUpload",
  "POST /2/media/upload/initialize": "initializeMediaUpload",
  "POST /2/media/upload/{id}/append": "appendMediaUpload",
  "POST /2/media/upload/{id}/finalize": "finalizeMediaUpload",
  "GET /2/media/upload": "getMediaUploadStatus",
  "POST /2/media/metadata": "createMediaMetadata",
  "GET /2/users/me": "getUsersMe",
  "GET /2/tweets": "getPostsByIds",
  "GET /2/tweets/{id}": "getPostsById",
  "GET /2/users/{id}/tweets": "getUsersPosts",
};

const INVALID = (message: string) => ({
  errors: [{ message }],
  title: "Invalid Request",
  detail: "One or more parameters to your request was invalid.",
  type: "https://api.twitter.com/2/problems/invalid-request",
});
const UNAUTHORIZED = { title: "Unauthorized", type: "about:blank", status: 401, detail: "Unauthorized" };

// X's prices (docs.x.com, pricing; x-docs/getting-started_pricing.mdx), in micro-dollars: what
// the fake deducts from the developer account's credits for each request it serves.
const PRICE = { post: 15_000, postWithUrl: 200_000, postRead: 5_000 };
/**
 * Out of credits: "API requests will fail until you purchase more credits", and a balance gone
 * slightly negative blocks requests too (x-docs/fundamentals_post-cap.mdx, pricing.mdx). X's
 * docs give no body; the status is 402 Payment Required, the body in X's problem form.
 */
const CREDITS_DEPLETED = {
  title: "CreditsDepleted",
  detail: "Your enrolled account does not have any credits to fulfill this request.",
  type: "https://api.twitter.com/2/problems/credits",
};
/**
 * The self-serve rules of post creation (x-docs/posts_manage-tweets_integrate.mdx, "Post
 * creation restrictions (self-serve)"): "the reply request will be rejected", "Requests that
 * include more than 1 cashtag will be rejected". The docs give no status: the fake answers as
 * X answers a post it forbids (403, as for a duplicate), with the docs' rule as the detail.
 */
const forbidden = (detail: string) => ({ title: "Forbidden", type: "about:blank", status: 403, detail });
const NOT_SUMMONED = forbidden(
  "Replies via the API are only permitted if the replying account has been explicitly summoned by the original post's author " +
    "(an @mention of the replying account, or a quote of one of its posts).",
);
const CASHTAGS = forbidden("Posts created via the API are limited to a maximum of 1 cashtag per post.");
const URL_IN_TEXT = /(https?:\/\/|www\.)\S+|\b[a-z0-9-]+\.(com|org|net|io|dev|co|app)\b/i;
const DAY_LIMIT = 100;
/** POST /2/tweets: posts a user may create in 15 minutes (docs.x.com, "Rate limits": 100/15min a user). */
const WINDOW_MS = 15 * 60_000;
const NOT_FOUND = "https://api.x.com/2/problems/resource-not-found";

let warned = false;

/** Which operation a request is, by the document when present, else by the fake's own list. */
function route(method: string, pathname: string) {
  const contract = xContract();
  if (contract) return contract.find(method, pathname);
  if (!warned) {
    warned = true;
    console.warn(`X's OpenAPI document is not at ${X_OPENAPI_PATH}: the fake of X checks no paths, scopes or bodies against it.`);
  }
  for (const [key, id] of Object.entries(IMPLEMENTED)) {
    const [m, template] = key.split(" ");
    const re = new RegExp(`^${template.replace(/\{[^/]+\}/g, "([^/]+)")}$`);
    const hit = m === method && re.exec(pathname);
    if (hit) return { op: { id, method, template, scopes: null, op: {} as never, pointer: "" } as XOperation, pathParams: { id: hit[1] } };
  }
  return null;
}

async function animated(b: Buffer) {
  try {
    return ((await sharp(b, { animated: true }).metadata()).pages ?? 1) > 1;
  } catch {
    return false;
  }
}

export function xRoutes(c: FakeContext) {
  const { f } = c;
  const dayReset = Math.floor(Date.now() / 1000) + 24 * 3600; // one 24-hour window per fake
  // Ids of 19 digits, as X's are (its document allows 1 to 19).
  const mediaId = () => String(1_800_000_000_000_000_000n + BigInt(c.serial()));

  return async (req: http.IncomingMessage, res: http.ServerResponse, u: URL, raw: Buffer): Promise<boolean> => {
    if (!u.pathname.startsWith("/2/")) return false;
    const method = req.method ?? "GET";
    const found = route(method, u.pathname);
    if (!found)
      return (c.bad(res, `X: ${method} ${u.pathname} is not in X's OpenAPI document`, 404, { errors: [{ message: "Sorry, that page does not exist" }] }), true);
    const { op } = found;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const problems = xContract()?.responseProblems(op, status, body) ?? [];
      for (const p of problems) f.badRequests.push(`the fake's own answer to ${op.id}: ${p}`);
      json(res, status, body, headers);
    };
    if (op.id !== "createPosts") f.mediaRequests.push({ path: u.pathname, method, headers: req.headers });

    const token = bearer(req);
    const queued =
      op.id === "createPosts"
        ? c.next("x")
        : op.id === "mediaUpload" || op.id === "initializeMediaUpload"
          ? c.next("x-upload")
          : op.id === "getPostsByIds" || op.id === "getPostsById" || op.id === "getUsersPosts"
            ? c.next("x-read")
            : undefined;
    const grant = f.tokens.x.access.get(token);
    if (queued === "401" || !grant) return (json(res, 401, UNAUTHORIZED), true);
    if (op.scopes !== null || xContract()) {
      const missing = op.scopes === null ? ["(an OAuth 2.0 user token cannot call this)"] : op.scopes.filter((s) => !grant.scopes.has(s));
      if (missing.length) {
        f.refusals.push(`${op.id}: missing ${missing.join(" ")}`);
        return (json(res, 403, { title: "Forbidden", type: "about:blank", status: 403, detail: `Missing scope: ${missing.join(", ")}` }), true);
      }
    }
    const contract = xContract();
    const problems = contract
      ? await contract.requestProblems(found, { query: u.searchParams, contentType: String(req.headers["content-type"] ?? ""), body: raw })
      : [];
    if (problems.length) return (c.bad(res, `X ${op.id}: ${problems.join("; ")}`, 400, INVALID(problems[0])), true);
    if (c.refuseEarly(res, queued, token)) return true;
    const who = grant.member ?? token;

    const handlers: Record<string, () => Promise<void> | void> = {
      getUsersMe: () =>
        send(200, { data: { id: grant.member ?? "2244994945", name: f.signIn.x.person.name, username: f.signIn.x.person.username ?? "writer" } }),
      mediaUpload: async () => {
        const form = await new Request("http://x.invalid/", {
          method: "POST",
          headers: { "content-type": String(req.headers["content-type"]) },
          body: new Uint8Array(raw),
        }).formData();
        const media = form.get("media");
        if (!(media instanceof Blob)) return c.bad(res, "X upload: media is not a file", 400, INVALID("media"));
        const bytes = Buffer.from(await media.arrayBuffer());
        const category = String(form.get("media_category"));
        const up = await newUpload(who, bytes, category, media.type);
        if (!up) return;
        if (c.hideAnswer(req, res, queued)) return;
        send(200, { data: { id: up.id, media_key: `3_${up.id}`, size: bytes.length, expires_after_secs: 86400, ...processing(up) } });
      },
      initializeMediaUpload: () => {
        const b = JSON.parse(raw.toString("utf8")) as { media_type?: string; total_bytes?: number; media_category?: string };
        if (!b.media_type || !b.total_bytes || !b.media_category)
          return c.bad(res, `X initialize without media_type, total_bytes or media_category: ${raw}`, 400, INVALID("initialize"));
        const id = mediaId();
        f.uploads.set(id, {
          id,
          owner: who,
          kind: "media",
          bytes: null,
          contentType: b.media_type,
          category: b.media_category,
          state: "waiting",
          pollsLeft: 0,
          segments: new Map(),
          totalBytes: b.total_bytes,
          failProcessing: queued === "processing_failed",
        });
        if (c.hideAnswer(req, res, queued)) return;
        send(200, { data: { id, media_key: `3_${id}`, expires_after_secs: 86400 } });
      },
      appendMediaUpload: async () => {
        const up = f.uploads.get(found.pathParams.id);
        if (!up?.segments || up.state !== "waiting" || up.owner !== who)
          return c.bad(res, `X append to ${found.pathParams.id}: no such upload session`, 400, INVALID("id"));
        const form = await new Request("http://x.invalid/", {
          method: "POST",
          headers: { "content-type": String(req.headers["content-type"]) },
          body: new Uint8Array(raw),
        }).formData();
        const media = form.get("media");
        if (!(media instanceof Blob)) return c.bad(res, "X append: media is not a file", 400, INVALID("media"));
        up.segments.set(Number(form.get("segment_index")), Buffer.from(await media.arrayBuffer()));
        send(200, { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } });
      },
      finalizeMediaUpload: async () => {
        const up = f.uploads.get(found.pathParams.id);
        if (!up?.segments || up.state !== "waiting" || up.owner !== who)
          return c.bad(res, `X finalize of ${found.pathParams.id}: no such upload session`, 400, INVALID("id"));
        const order = [...up.segments.keys()].sort((a, b) => a - b);
        if (order.some((k, i) => k !== i)) return c.bad(res, `X finalize: segments ${order} are not 0..n-1`, 400, INVALID("segments"));
        const bytes = Buffer.concat(order.map((k) => up.segments!.get(k)!));
        if (bytes.length !== up.totalBytes)
          return c.bad(res, `X finalize: ${bytes.length} bytes received, ${up.totalBytes} announced`, 400, INVALID("total_bytes"));
        const done = await newUpload(who, bytes, up.category!, up.contentType!, up.id, up.failProcessing);
        if (!done) return;
        send(200, { data: { id: up.id, media_key: `3_${up.id}`, size: bytes.length, expires_after_secs: 86400, ...processing(done) } });
      },
      getMediaUploadStatus: () => {
        const up = f.uploads.get(u.searchParams.get("media_id") ?? "");
        if (!up || up.owner !== who) return c.bad(res, `X status of unknown media ${u.searchParams.get("media_id")}`, 400, INVALID("media_id"));
        if (up.state === "processing" && --up.pollsLeft <= 0) up.state = "ready";
        send(200, { data: { id: up.id, media_key: `3_${up.id}`, ...processing(up) } });
      },
      createMediaMetadata: () => {
        const b = JSON.parse(raw.toString("utf8")) as { id: string; metadata?: { alt_text?: { text: string } } };
        const up = f.uploads.get(b.id);
        if (!up || up.owner !== who) return c.bad(res, `X metadata for unknown media ${b.id}`, 400, INVALID("id"));
        if (b.metadata?.alt_text) up.altText = b.metadata.alt_text.text;
        send(200, { data: { id: b.id, associated_metadata: b.metadata ?? {} } });
      },
      createPosts: () => createPost(req, res, raw, who, queued, send),
      getPostsByIds: () => readPosts(u, who, send),
      getPostsById: () => readPost(found.pathParams.id, send),
      getUsersPosts: () => timeline(u, found.pathParams.id, who, send),
    };
    const handler = handlers[op.id];
    if (!handler) return (c.bad(res, `the fake of X does not implement ${op.id}`, 501), true);
    await handler();
    return true;

    /** A finished upload: GIFs (tweet_gif) are processed for a while; an animated GIF is one. */
    async function newUpload(
      owner: string,
      bytes: Buffer,
      category: string,
      contentType: string,
      id = mediaId(),
      fail = queued === "processing_failed",
    ): Promise<Upload | null> {
      const moving = contentType === "image/gif" && (await animated(bytes));
      if (moving && category === "tweet_image") {
        c.bad(res, "X: an animated GIF uploaded as tweet_image (X takes animated GIFs as tweet_gif)", 400, INVALID("media_category"));
        return null;
      }
      const processed = category === "tweet_gif" || category === "tweet_video";
      const up: Upload = {
        id,
        owner,
        kind: "media",
        bytes,
        contentType,
        category,
        state: processed ? (fail ? "failed" : "processing") : "ready",
        pollsLeft: f.processingPolls.x,
      };
      if (up.state === "processing" && up.pollsLeft <= 0) up.state = "ready";
      f.uploads.set(id, up);
      return up;
    }
  };

  /** One tweet read back (a receipt): gone once deleted (a test dropped it), as X answers: 200 with a resource-not-found problem. */
  function readPost(id: string, send: (status: number, body: unknown) => void) {
    f.receiptReads.push({ route: "x", id });
    const t = f.created.x.find((x) => x.id === id && !f.dropped.has(id));
    if (t) return send(200, { data: { id: t.id, text: t.text, edit_history_tweet_ids: [t.id] } });
    const detail = `Could not find post with id: [${id}].`;
    send(200, { errors: [{ value: id, detail, title: "Not Found Error", resource_type: "post", parameter: "id", resource_id: id, type: NOT_FOUND }] });
  }

  /**
   * Engagement of tweets by id: public_metrics for any tweet; non_public_metrics only for the
   * token's own tweets of the last 30 days (X's metrics guide), else the whole request is
   * refused. A tweet it does not know is an entry of `errors` (Resource Not Found).
   */
  function readPosts(u: URL, who: string, send: (status: number, body: unknown) => void) {
    const ids = (u.searchParams.get("ids") ?? "").split(",");
    const fields = (u.searchParams.get("tweet.fields") ?? u.searchParams.get("post.fields") ?? "").split(",");
    if (f.xCredits !== null && f.xCredits <= 0) return send(402, CREDITS_DEPLETED);
    f.reads.push({ route: "x", ids });
    const known = ids.map((id) => f.created.x.find((t) => t.id === id)).filter((t) => t !== undefined);
    if (f.xCredits !== null) f.xCredits -= known.length * PRICE.postRead;
    if (fields.includes("non_public_metrics") && known.some((t) => t.owner !== who || Date.now() - (t.at ?? 0) > 30 * 86_400_000))
      return send(400, INVALID("non_public_metrics is only available for the authenticating user's Posts of the last 30 days"));
    send(200, {
      data: known.map((t) => ({
        id: t.id,
        text: t.text,
        edit_history_tweet_ids: [t.id],
        ...(fields.includes("public_metrics") && {
          public_metrics: publicMetrics(t.id),
        }),
        ...(fields.includes("non_public_metrics") && {
          non_public_metrics: { impression_count: counts(t.id).impressions, url_link_clicks: counts(t.id).clicks, user_profile_clicks: 0 },
        }),
      })),
      ...(known.length < ids.length && {
        errors: ids
          .filter((id) => !known.some((t) => t.id === id))
          .map((id) => ({
            value: id,
            detail: `Could not find post with ids: [${id}].`,
            title: "Not Found Error",
            resource_type: "post",
            parameter: "ids",
            resource_id: id,
            type: "https://api.twitter.com/2/problems/resource-not-found",
          })),
      }),
    });
  }

  // Function declarations: the handlers above run after xRoutes has returned.
  function counts(id: string) {
    return f.engagement.get(id) ?? { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 };
  }
  /** A post's public_metrics as X names them. */
  function publicMetrics(id: string) {
    const n = counts(id);
    return {
      repost_count: n.reposts,
      reply_count: n.replies,
      like_count: n.likes,
      quote_count: n.quotes ?? 0,
      bookmark_count: 0,
      impression_count: n.impressions,
    };
  }

  /**
   * A user's timeline (GET /2/users/{id}/tweets), newest first, between since_id and until_id,
   * max_results a page with meta.next_token. The user's own, read by themselves, is an owned
   * read when they own the developer app (x-docs, pricing: $0.001 a post; the fake's app owner
   * is whoever reads their own timeline), each post returned billed.
   */
  function timeline(u: URL, id: string, who: string, send: (status: number, body: unknown) => void) {
    if (f.xCredits !== null && f.xCredits <= 0) return send(402, CREDITS_DEPLETED);
    const since = BigInt(u.searchParams.get("since_id") ?? "0");
    const until = u.searchParams.get("until_id") ? BigInt(u.searchParams.get("until_id")!) : null;
    const all = f.created.x
      .filter((t) => t.owner === id && BigInt(t.id) > since && (until === null || BigInt(t.id) < until))
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
    const from = Number(u.searchParams.get("pagination_token") ?? "0");
    const max = Number(u.searchParams.get("max_results") ?? "10");
    const page = all.slice(from, from + max);
    f.reads.push({ route: "x", ids: page.map((t) => t.id), owned: id === who });
    if (f.xCredits !== null) f.xCredits -= page.length * (id === who ? 1_000 : PRICE.postRead);
    send(200, {
      data: page.map((t) => ({ id: t.id, text: t.text, edit_history_tweet_ids: [t.id], public_metrics: publicMetrics(t.id) })),
      meta: {
        result_count: page.length,
        ...(page.length && { newest_id: page[0].id, oldest_id: page[page.length - 1].id }),
        ...(from + max < all.length && { next_token: String(from + max) }),
      },
    });
  }

  /** X's processing_info for media it processes after upload (absent for images). */
  function processing(up: Upload): { processing_info?: { state: string; check_after_secs?: number; progress_percent?: number } } {
    if (up.category !== "tweet_gif" && up.category !== "tweet_video") return {};
    if (up.state === "ready") return { processing_info: { state: "succeeded", progress_percent: 100 } };
    if (up.state === "failed") return { processing_info: { state: "failed", progress_percent: 0 } };
    return { processing_info: { state: "in_progress", check_after_secs: 1, progress_percent: 50 } };
  }

  async function createPost(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: Buffer,
    who: string,
    queued: ReturnType<FakeContext["next"]>,
    send: (status: number, body: unknown, headers?: Record<string, string>) => void,
  ) {
    const b = JSON.parse(raw.toString("utf8")) as { text?: string; media?: { media_ids: string[] }; reply?: { in_reply_to_tweet_id: string } };
    f.requests.push({ route: "x", headers: req.headers, body: b });
    const ids = b.media?.media_ids ?? [];
    for (const id of ids) {
      const up = f.uploads.get(id);
      if (up?.kind !== "media" || up.owner !== who)
        return c.bad(res, `tweet names media ${id}, not uploaded by this user`, 400, INVALID("Your media IDs are invalid."));
      if (up.state !== "ready")
        return c.bad(res, `tweet names media ${id} that X has not finished processing (${up.state})`, 400, INVALID("Your media IDs are invalid."));
    }
    const gifs = ids.filter((id) => f.uploads.get(id)!.category === "tweet_gif");
    if (gifs.length && ids.length > 1)
      return c.bad(res, "tweet mixes a GIF with other media (X: up to 4 images, or one GIF)", 400, INVALID("Your media IDs are invalid."));
    const to = b.reply?.in_reply_to_tweet_id;
    const original = to ? f.created.x.find((t) => t.id === to) : undefined;
    if (to && !original) return c.bad(res, `reply to unknown tweet ${to}`, 400, INVALID("in_reply_to_tweet_id"));
    if (f.xCredits !== null && f.xCredits <= 0) return json(res, 402, CREDITS_DEPLETED);
    if (f.xSelfServe) {
      // Summoned: another account's post that @mentions the replying one (whoever signs in
      // with the fake). A reply to one's own post is not: X's docs do not say it is.
      const mention = new RegExp(`@${f.signIn.x.person.username ?? "\\0"}\\b`, "i");
      if (original && !(original.owner !== who && mention.test(original.text))) {
        f.refusals.push(`createPosts: a reply to ${to}, where the replying account was not summoned`);
        return json(res, 403, NOT_SUMMONED);
      }
      if (((b.text ?? "").match(/(^|\s)\$[a-z]{1,6}(?=$|\W)/gi)?.length ?? 0) > 1) return json(res, 403, CASHTAGS);
    }
    const now = Math.floor(Date.now() / 1000);
    // The 15-minute window on creating posts, per user: it resets 15 minutes after the oldest post in it.
    const recent = f.created.x.filter((p) => p.owner === who && (p.at ?? 0) > Date.now() - WINDOW_MS);
    const left = f.xPostsPer15Min - recent.length;
    const window = {
      "x-rate-limit-limit": String(f.xPostsPer15Min),
      "x-rate-limit-reset": String(Math.ceil(((recent[0]?.at ?? Date.now()) + WINDOW_MS) / 1000)),
    };
    if (left <= 0)
      return json(
        res,
        429,
        { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
        { ...window, "x-rate-limit-remaining": "0" },
      );
    if (queued === "429daily" || f.xDailyRemaining <= 0) {
      return json(
        res,
        429,
        { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
        {
          ...window,
          "x-rate-limit-remaining": String(left),
          "x-user-limit-24hour-limit": String(DAY_LIMIT),
          "x-user-limit-24hour-remaining": "0",
          "x-user-limit-24hour-reset": String(now + 5 * 3600),
        },
      );
    }
    if (queued === "duplicate")
      return json(res, 403, { detail: "You are not allowed to create a Tweet with duplicate content.", type: "about:blank", title: "Forbidden", status: 403 });
    const text = b.text ?? "";
    f.posts.x.push(text);
    const id = String(1_900_000_000_000_000_000n + BigInt(c.serial()));
    f.created.x.push({ id, text, body: b, owner: who, at: Date.now() });
    f.xDailyRemaining--;
    if (f.xCredits !== null) f.xCredits -= URL_IN_TEXT.test(text) ? PRICE.postWithUrl : PRICE.post;
    if (c.hideAnswer(req, res, queued)) return;
    // Created, but a proxy on the way answers as if the network had failed.
    if (queued === "created502") return json(res, 502, { message: "Bad Gateway" });
    await c.answerDelay();
    // Created, but the id comes back with half an emoji (JSON allows "\ud800").
    if (queued === "oddid") return void res.writeHead(201, { "content-type": "application/json" }).end(`{"data":{"id":"${id}\\ud800","text":""}}`);
    send(
      201,
      { data: { id, text } },
      {
        ...window,
        "x-rate-limit-remaining": String(left - 1),
        "x-user-limit-24hour-limit": String(DAY_LIMIT),
        "x-user-limit-24hour-remaining": String(f.xDailyRemaining),
        "x-user-limit-24hour-reset": String(dayReset),
      },
    );
  }
}
