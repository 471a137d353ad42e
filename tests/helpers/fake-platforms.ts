import http from "node:http";
import type { AddressInfo } from "node:net";
import { computedLinkedInVersion } from "@/lib/platforms/linkedin-version";

// Fake LinkedIn and X on one loopback HTTP server, driven through the real adapters. It checks
// the exact request shapes LinkedIn's Posts, Images and Documents APIs and X API v2 (tweets,
// media upload, media metadata) demand, keeps what was uploaded and posted, and can be told to
// misbehave for the next requests of a route.

export type Misbehaviour =
  "ok" | "429" | "500" | "timeout" | "reset" | "duplicate" | "401" | "refuse" | "echo" | "echo500" | "emoji400" | "oddid" | "created502";
type Route = "linkedin" | "x";
/** Posts/tweets ("linkedin", "x") and media uploads (initializeUpload, POST /2/media/upload). */
export type Queue = Route | "linkedin-upload" | "x-upload";

export type Upload = { id: string; owner: string; kind: "image" | "document" | "media"; bytes: Buffer | null; contentType: string | null; altText?: string };
export type Created = { id: string; text: string; body: Record<string, unknown> };

export type FakePlatforms = {
  url: string;
  /** Texts each platform created (a post answered with timeout/reset is still created). */
  posts: Record<Route, string[]>;
  /** Each created post/tweet in order, with its id and request body. */
  created: Record<Route, Created[]>;
  /** LinkedIn image/document URNs and X media ids, with the bytes received. */
  uploads: Map<string, Upload>;
  refreshes: Record<Route, number>;
  /** Requests refused because their shape was wrong (must stay empty). */
  badRequests: string[];
  /** Every post/tweet request as received (headers and parsed body), to check its exact shape. */
  requests: { route: Route; headers: http.IncomingHttpHeaders; body: unknown }[];
  /** Every media request (initializeUpload, PUT of bytes, X upload and metadata), in order. */
  mediaRequests: { path: string; method: string; headers: http.IncomingHttpHeaders }[];
  /** Valid access tokens and the current refresh token, per platform. */
  tokens: Record<Route, { access: Set<string>; refresh: string }>;
  misbehave: (route: Queue, ...what: Misbehaviour[]) => void;
  /** The k-th next request of `route` (1: the next one) misbehaves; those before it go through. */
  failAt: (route: Queue, k: number, what: Misbehaviour) => void;
  /** Forgets queued misbehaviour. */
  calm: () => void;
  count: (route: Route, text: string) => number;
  close: () => Promise<void>;
};

const read = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });

const parseOrNull = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};
const keys = (o: unknown) => (o && typeof o === "object" ? Object.keys(o).sort().join(",") : "");
const subsetOf = (o: unknown, allowed: string[]) => !!o && typeof o === "object" && Object.keys(o).every((k) => allowed.includes(k));

/**
 * `linkedinMinVersion`: LinkedIn-Version values before it (or after the current month) are
 * answered 426 NONEXISTENT_VERSION, as LinkedIn does for retired (or unreleased) versions.
 * Default: twelve months back, LinkedIn's support window. `answerDelayMs`: how long a post or
 * tweet takes to be answered (the benchmark's platform latency).
 */
export async function startFakePlatforms(opts: { refreshDelayMs?: number; linkedinMinVersion?: string; answerDelayMs?: number } = {}): Promise<FakePlatforms> {
  const queue: Record<Queue, Misbehaviour[]> = { linkedin: [], x: [], "linkedin-upload": [], "x-upload": [] };
  let serial = 0;
  const now = new Date();
  const newest = computedLinkedInVersion(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1)));
  const oldest = opts.linkedinMinVersion ?? computedLinkedInVersion(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 9, 1)));
  const f = {
    posts: { linkedin: [] as string[], x: [] as string[] },
    created: { linkedin: [] as Created[], x: [] as Created[] },
    uploads: new Map<string, Upload>(),
    refreshes: { linkedin: 0, x: 0 },
    badRequests: [] as string[],
    requests: [] as FakePlatforms["requests"],
    mediaRequests: [] as FakePlatforms["mediaRequests"],
    tokens: { linkedin: { access: new Set(["li-access-0"]), refresh: "li-refresh-0" }, x: { access: new Set(["x-access-0"]), refresh: "x-refresh-0" } },
  };
  const hanging = new Set<http.ServerResponse>();
  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };
  const bad = (res: http.ServerResponse, why: string) => {
    f.badRequests.push(why);
    json(res, 400, { message: why });
  };
  const bearer = (req: http.IncomingMessage) => (req.headers.authorization ?? "").replace(/^Bearer /, "");

  /** Answers a queued misbehaviour that happens before anything is created, or returns false. */
  const refuseEarly = (res: http.ServerResponse, next: Misbehaviour | undefined, token: string): boolean => {
    if (next === "429") {
      json(res, 429, { title: "Too Many Requests" }, { "x-rate-limit-reset": String(Math.floor(Date.now() / 1000) + 60), "x-rate-limit-remaining": "0" });
      return true;
    }
    if (next === "500") return (json(res, 503, { message: "Service Unavailable" }), true);
    if (next === "refuse") return (json(res, 400, { message: "Refused: the content is not acceptable" }), true);
    // An error text whose 199th character is the first half of an emoji: where a reason is cut.
    if (next === "emoji400") {
      res.writeHead(400, { "content-type": "application/json" }).end(`{"detail":"${".".repeat(187)}😀 and the rest of the reason, past the cut"}`);
      return true;
    }
    // Error bodies that echo the caller's credentials, labelled and bare, as some gateways do.
    if (next === "echo" || next === "echo500") {
      json(res, next === "echo" ? 400 : 503, {
        message: `Bad request: Authorization: Bearer ${token}`,
        detail: `${token} was rejected`,
        debug: `access_token=${token}&client_secret=li-secret`,
        echo: { access_token: token },
      });
      return true;
    }
    return false;
  };
  /** After something was created: a hanging or cut connection hides the answer. */
  const hideAnswer = (req: http.IncomingMessage, res: http.ServerResponse, next: Misbehaviour | undefined): boolean => {
    if (next === "timeout") return (hanging.add(res), true);
    if (next === "reset") return (req.socket.destroy(), true);
    return false;
  };

  /** A LinkedIn `content` names only URNs uploaded (bytes received) by the post's author. */
  const linkedinContent = (c: Record<string, unknown>, author: string): string | null => {
    const image = (i: unknown, allowed: string[]) => {
      const id = (i as { id?: string })?.id ?? "";
      const u = f.uploads.get(id);
      if (!subsetOf(i, allowed)) return `content keys ${keys(i)}`;
      if (!u || !u.bytes) return `content names ${id}, not uploaded`;
      if (u.owner !== author) return `content ${id} owned by ${u.owner}, not ${author}`;
      return null;
    };
    if (keys(c) === "media") {
      const m = c.media as { id?: string; title?: unknown };
      if (m?.id?.startsWith("urn:li:document:"))
        return keys(m) === "id,title" && typeof m.title === "string" && m.title ? image(m, ["id", "title"]) : "document title";
      if (m?.id?.startsWith("urn:li:image:")) return image(m, ["id", "altText"]);
      return `content media id ${m?.id}`;
    }
    if (keys(c) === "multiImage") {
      const list = (c.multiImage as { images?: unknown[] })?.images;
      if (keys(c.multiImage) !== "images" || !Array.isArray(list) || list.length < 2 || list.length > 20) return "multiImage images";
      for (const i of list) {
        if (!(i as { id?: string })?.id?.startsWith("urn:li:image:")) return "multiImage id";
        const why = image(i, ["id", "altText"]);
        if (why) return why;
      }
      return null;
    }
    return `content keys ${keys(c)}`;
  };

  const linkedinInit = async (req: http.IncomingMessage, res: http.ServerResponse, kind: "image" | "document", body: string) => {
    const u = new URL(req.url!, "http://fake");
    if (req.method !== "POST" || u.searchParams.get("action") !== "initializeUpload") return bad(res, `${kind} ${req.method} ${u.search}`);
    const next = queue["linkedin-upload"].shift();
    const token = bearer(req);
    if (next === "401" || !f.tokens.linkedin.access.has(token)) return json(res, 401, { message: "Unauthorized" });
    if (refuseEarly(res, next, token)) return;
    if (!String(req.headers["content-type"]).startsWith("application/json")) return bad(res, `${kind} init content-type`);
    let b: { initializeUploadRequest?: { owner?: string } };
    try {
      b = JSON.parse(body);
    } catch {
      return bad(res, `${kind} init not JSON`);
    }
    if (
      keys(b) !== "initializeUploadRequest" ||
      keys(b.initializeUploadRequest) !== "owner" ||
      !/^urn:li:person:.+/.test(b.initializeUploadRequest?.owner ?? "")
    )
      return bad(res, `${kind} init body ${body}`);
    const id = `urn:li:${kind}:C${++serial}`;
    f.uploads.set(id, { id, owner: b.initializeUploadRequest!.owner!, kind, bytes: null, contentType: null });
    if (hideAnswer(req, res, next)) return;
    json(res, 200, { value: { uploadUrlExpiresAt: Date.now() + 3600_000, uploadUrl: `${url}/li-upload/${encodeURIComponent(id)}`, [kind]: id } });
  };

  const linkedinPut = (req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
    const id = decodeURIComponent(req.url!.slice("/li-upload/".length));
    const up = f.uploads.get(id);
    if (req.method !== "PUT") return bad(res, `upload method ${req.method}`);
    if (!f.tokens.linkedin.access.has(bearer(req))) return json(res, 401, { message: "Unauthorized" });
    if (!up || up.bytes) return bad(res, `upload to ${id}: ${up ? "already uploaded" : "unknown"}`);
    if (!raw.length) return bad(res, "upload without bytes");
    up.bytes = raw;
    up.contentType = String(req.headers["content-type"] ?? "");
    res.writeHead(201).end();
  };

  const xUpload = async (req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
    const next = queue["x-upload"].shift();
    const token = bearer(req);
    if (next === "401" || !f.tokens.x.access.has(token)) return json(res, 401, { title: "Unauthorized" });
    if (refuseEarly(res, next, token)) return;
    const type = String(req.headers["content-type"] ?? "");
    if (req.method !== "POST" || !type.startsWith("multipart/form-data")) return bad(res, `X upload ${req.method} ${type}`);
    let form: FormData;
    try {
      form = await new Request("http://fake/", { method: "POST", headers: { "content-type": type }, body: new Uint8Array(raw) }).formData();
    } catch {
      return bad(res, "X upload: not multipart");
    }
    const media = form.get("media");
    const category = form.get("media_category");
    if ([...new Set(form.keys())].sort().join(",") !== "media,media_category") return bad(res, `X upload fields ${[...form.keys()]}`);
    if (!(media instanceof Blob) || !media.size) return bad(res, "X upload without media bytes");
    if (category !== "tweet_image" && category !== "tweet_gif") return bad(res, `X media_category ${category}`);
    const id = String(1_900_000_000_000_000_000n + BigInt(++serial));
    f.uploads.set(id, { id, owner: token, kind: "media", bytes: Buffer.from(await media.arrayBuffer()), contentType: media.type });
    if (hideAnswer(req, res, next)) return;
    json(res, 200, { data: { id, media_key: `3_${id}`, size: media.size, expires_after_secs: 86400 } });
  };

  const xMetadata = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    if (!f.tokens.x.access.has(bearer(req))) return json(res, 401, { title: "Unauthorized" });
    let b: { id?: string; metadata?: { alt_text?: { text?: string } } };
    try {
      b = JSON.parse(body);
    } catch {
      return bad(res, "X metadata not JSON");
    }
    const text = b.metadata?.alt_text?.text;
    if (keys(b) !== "id,metadata" || keys(b.metadata) !== "alt_text" || keys(b.metadata!.alt_text) !== "text" || typeof text !== "string" || text.length > 1000)
      return bad(res, `X metadata body ${body}`);
    const up = f.uploads.get(b.id!);
    if (!up || up.kind !== "media") return bad(res, `X metadata for unknown media ${b.id}`);
    up.altText = text;
    json(res, 200, { data: { id: b.id, associated_metadata: { alt_text: { text } } } });
  };

  const server = http.createServer(async (req, res) => {
    const raw = await read(req);
    const body = raw.toString("utf8");
    const path = new URL(req.url!, "http://fake").pathname;
    if (path.startsWith("/rest/")) {
      // Every versioned LinkedIn endpoint: a retired or unreleased version is answered 426.
      const v = String(req.headers["linkedin-version"] ?? "");
      if (path === "/rest/posts") f.requests.push({ route: "linkedin", headers: req.headers, body: parseOrNull(body) });
      else f.mediaRequests.push({ path, method: req.method!, headers: req.headers });
      if (!/^\d{6}$/.test(v)) return bad(res, `LinkedIn-Version ${v}`);
      if (v < oldest || v > newest) return json(res, 426, { status: 426, code: "NONEXISTENT_VERSION", message: `Requested version ${v} is not active` });
      if (req.headers["x-restli-protocol-version"] !== "2.0.0") return bad(res, "X-Restli-Protocol-Version");
    }
    if (path === "/rest/images") return linkedinInit(req, res, "image", body);
    if (path === "/rest/documents") return linkedinInit(req, res, "document", body);
    if (path.startsWith("/li-upload/")) return (f.mediaRequests.push({ path, method: req.method!, headers: req.headers }), linkedinPut(req, res, raw));
    if (path === "/2/media/upload") return (f.mediaRequests.push({ path, method: req.method!, headers: req.headers }), xUpload(req, res, raw));
    if (path === "/2/media/metadata") return (f.mediaRequests.push({ path, method: req.method!, headers: req.headers }), xMetadata(req, res, body));
    const route: Route | null = path === "/rest/posts" ? "linkedin" : path === "/2/tweets" ? "x" : null;
    if (route) {
      let parsed: Record<string, unknown> | null = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        // recorded as null; refused below
      }
      if (route === "x") f.requests.push({ route, headers: req.headers, body: parsed });
      const token = bearer(req);
      const next = queue[route].shift();
      if (next === "401" || !f.tokens[route].access.has(token)) return json(res, 401, { message: "Unauthorized" });
      if (refuseEarly(res, next, token)) return;
      if (!parsed) return bad(res, "not JSON");
      const b = parsed as Record<string, any>;
      let text: string;
      if (route === "linkedin") {
        const k = Object.keys(b)
          .filter((x) => x !== "content")
          .sort()
          .join(",");
        if (k !== "author,commentary,distribution,isReshareDisabledByAuthor,lifecycleState,visibility") return bad(res, `keys ${keys(b)}`);
        if (!/^urn:li:person:.+/.test(b.author) || b.visibility !== "PUBLIC" || b.lifecycleState !== "PUBLISHED")
          return bad(res, "author/visibility/lifecycle");
        if (JSON.stringify(b.distribution) !== JSON.stringify({ feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] }))
          return bad(res, "distribution");
        if ("content" in b) {
          const why = linkedinContent(b.content, b.author);
          if (why) return bad(res, why);
        }
        text = b.commentary;
      } else {
        if (!subsetOf(b, ["text", "media", "reply"]) || typeof b.text !== "string") return bad(res, `tweet keys ${keys(b)}`);
        if ("media" in b) {
          const ids = b.media?.media_ids;
          if (keys(b.media) !== "media_ids" || !Array.isArray(ids) || ids.length < 1 || ids.length > 4)
            return bad(res, `tweet media ${JSON.stringify(b.media)}`);
          for (const id of ids) if (typeof id !== "string" || f.uploads.get(id)?.kind !== "media") return bad(res, `tweet names media ${id}, not uploaded`);
        }
        if ("reply" in b) {
          const to = b.reply?.in_reply_to_tweet_id;
          if (keys(b.reply) !== "in_reply_to_tweet_id" || !f.created.x.some((t) => t.id === to)) return bad(res, `reply to unknown tweet ${to}`);
        }
        text = b.text;
      }
      if (!String(req.headers["content-type"]).startsWith("application/json")) return bad(res, "content-type");
      if (next === "duplicate") {
        return route === "linkedin"
          ? json(res, 422, { status: 422, code: "DUPLICATE_POST", message: "Content is a duplicate of urn:li:share:1" })
          : json(res, 403, { detail: "You are not allowed to create a Tweet with duplicate content." });
      }
      f.posts[route].push(text);
      const id = String(++serial);
      f.created[route].push({ id: route === "linkedin" ? `urn:li:share:${id}` : id, text, body: b });
      if (hideAnswer(req, res, next)) return;
      // Created, but a proxy on the way answers as if the network had failed.
      if (next === "created502") return json(res, 502, { message: "Bad Gateway" });
      if (opts.answerDelayMs) await new Promise((r) => setTimeout(r, opts.answerDelayMs));
      // Created, but the id comes back with half an emoji (JSON allows "\ud800").
      if (next === "oddid") return res.writeHead(201, { "content-type": "application/json" }).end(`{"data":{"id":"${id}\\ud800"}}`);
      return route === "linkedin" ? res.writeHead(201, { "x-restli-id": `urn:li:share:${id}` }).end() : json(res, 201, { data: { id, text } });
    }
    // OAuth 2.0 refresh with rotation: the old refresh token stops working.
    const oauth: Route | null = path === "/oauth/v2/accessToken" ? "linkedin" : path === "/2/oauth2/token" ? "x" : null;
    if (oauth) {
      const form = new URLSearchParams(body);
      if (form.get("grant_type") !== "refresh_token") return bad(res, "grant_type");
      if (oauth === "x" && !String(req.headers.authorization).startsWith("Basic ")) return bad(res, "X refresh without client authentication");
      if (oauth === "linkedin" && !(form.get("client_id") && form.get("client_secret"))) return bad(res, "LinkedIn refresh without client credentials");
      f.refreshes[oauth]++;
      await new Promise((r) => setTimeout(r, opts.refreshDelayMs ?? 50));
      const t = f.tokens[oauth];
      if (form.get("refresh_token") !== t.refresh) return json(res, 400, { error: "invalid_grant" });
      const n = f.refreshes[oauth];
      t.access = new Set([`${oauth}-access-${n}`]);
      t.refresh = `${oauth}-refresh-${n}`;
      return json(res, 200, { access_token: `${oauth}-access-${n}`, refresh_token: t.refresh, expires_in: 7200, token_type: "bearer" });
    }
    json(res, 404, { message: "not found" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...f,
    url,
    misbehave: (route, ...what) => queue[route].push(...what),
    failAt: (route, k, what) => queue[route].push(...Array<Misbehaviour>(k - 1).fill("ok"), what),
    calm: () => {
      for (const q of Object.values(queue)) q.length = 0;
    },
    count: (route, text) => f.posts[route].filter((p) => p === text).length,
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A server's environment that sends LinkedIn and X (sign-in and publishing) to the fakes. */
export const fakePlatformEnv = (fake: FakePlatforms) => ({
  LINKEDIN_API_URL: fake.url,
  LINKEDIN_OAUTH_URL: fake.url,
  X_API_URL: fake.url,
  // App credentials make the real adapters the publishing path (else: the sandbox).
  LINKEDIN_CLIENT_ID: "li-app",
  LINKEDIN_CLIENT_SECRET: "li-secret",
  X_CLIENT_ID: "x-app",
  X_CLIENT_SECRET: "x-secret",
});
