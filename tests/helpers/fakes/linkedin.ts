import type http from "node:http";
import { computedLinkedInVersion } from "@/lib/adapters/platforms/linkedin-version";
import type { FakeContext } from "./context";
import { renderLittle } from "./little-text";
import { bearer, json, keys, parseOrNull, sniff, subsetOf, type Grant } from "./state";

// LinkedIn on the fake, holding the rules LinkedIn documents (it publishes no OpenAPI
// document; learn.microsoft.com, LinkedIn Marketing: Posts, Images, Documents, MultiImage,
// little text format, versioning): every /rest call carries an active `LinkedIn-Version` and
// `X-Restli-Protocol-Version: 2.0.0`; writing needs `w_member_social` and acts as the token's
// member only; images are JPG, PNG or GIF; a document is processed after upload
// (PROCESSING, then AVAILABLE) and a post may name it only once it is available; the
// commentary is little text, rendered as a reader would see it; a comment (Social Actions:
// POST /rest/socialActions/{urn}/comments, the post's URN encoded in the path) is made on a
// post that exists, as the token's member, with a message of plain text of at most 1,250
// characters, and is answered 201 with the comment (its `commentUrn`). Company pages
// (Organization Access Control by Role, Organization Lookup): listing them needs
// rw_organization_admin; posting, uploading or commenting as an organization needs
// w_organization_social and an approved ADMINISTRATOR role of the token's member.
// Engagement: Member Post Analytics (GET /rest/memberCreatorPostAnalytics?q=entity, one
// queryType and aggregation a request, the post a Rest.li union of its encoded URN, only the
// token's member's own posts, r_member_postAnalytics) and Organization Share Statistics
// (GET /rest/organizationalEntityShareStatistics?q=organizationalEntity, shares=List(…) and
// ugcPosts=List(…) of the page's posts, rw_organization_admin and an ADMINISTRATOR role).
// Article content (a link card) names its source and title, and a thumbnail only as an image
// its author uploaded. Reading a post back (Posts API, Retrieve Posts: GET /rest/posts/{encoded URN}) needs
// r_member_social for a member's post, r_organization_social for a page's; a post LinkedIn
// took down after accepting it (a test dropped it) is not found.

const ACCESS_DENIED = (what: string) => ({ status: 403, serviceErrorCode: 100, code: "ACCESS_DENIED", message: `Not enough permissions to access: ${what}` });
const UNAUTHORIZED = {
  status: 401,
  serviceErrorCode: 65601,
  code: "REVOKED_ACCESS_TOKEN",
  message: "The token used in the request has been revoked by the user",
};
const IMAGE_FORMATS = new Set(["jpeg", "png", "gif"]);
const DOCUMENT_FORMATS = new Set(["pdf"]);

/**
 * `minVersion`: LinkedIn-Version values before it (or after the current month) are answered
 * 426 NONEXISTENT_VERSION, as LinkedIn does for retired (or unreleased) versions. Default:
 * twelve months back, LinkedIn's support window.
 */
export function linkedinRoutes(c: FakeContext, minVersion?: string) {
  const { f } = c;
  const now = new Date();
  const newest = computedLinkedInVersion(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1)));
  const oldest = minVersion ?? computedLinkedInVersion(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 9, 1)));

  const memberOf = (g: Grant) => (g.member ? `urn:li:person:${g.member}` : null);
  /** Why `member` may not act as `urn` (a person other than the token's, a page it does not administer), or null. */
  const mayActAs = (urn: string, member: string | null, g: Grant): string | null => {
    const org = /^urn:li:organization:(\d+)$/.exec(urn)?.[1];
    if (!org) return member && urn !== member ? `acts as ${urn}` : null;
    if (!g.scopes.has("w_organization_social")) return `acts as ${urn} without w_organization_social`;
    const page = f.organizations.find((o) => o.id === org);
    return page && g.member && page.admins.includes(g.member) ? null : `acts as ${urn}, which ${member} does not administer`;
  };
  const actor = /^urn:li:(person|organization):.+/;

  /** A post's `content` names only media its author uploaded, each ready; null when it may. */
  const contentProblem = (content: Record<string, unknown>, author: string): string | null => {
    const media = (i: unknown, allowed: string[], kind: "image" | "document") => {
      const id = (i as { id?: string })?.id ?? "";
      const u = f.uploads.get(id);
      if (!subsetOf(i, allowed)) return `content keys ${keys(i)}`;
      if (!u?.bytes || u.kind !== kind) return `content names ${id}, not an uploaded ${kind}`;
      if (u.owner !== author) return `content ${id} owned by ${u.owner}, not ${author}`;
      if (u.state !== "ready") return `content names ${id}, which LinkedIn has not finished processing (${u.state})`;
      return null;
    };
    if (keys(content) === "media") {
      const m = content.media as { id?: string; title?: unknown };
      if (m?.id?.startsWith("urn:li:document:"))
        return keys(m) === "id,title" && typeof m.title === "string" && m.title ? media(m, ["id", "title"], "document") : "document title";
      if (m?.id?.startsWith("urn:li:image:")) return media(m, ["id", "altText"], "image");
      return `content media id ${m?.id}`;
    }
    if (keys(content) === "multiImage") {
      const list = (content.multiImage as { images?: unknown[] })?.images;
      if (keys(content.multiImage) !== "images" || !Array.isArray(list) || list.length < 2 || list.length > 20) return "multiImage images";
      for (const i of list) {
        if (!(i as { id?: string })?.id?.startsWith("urn:li:image:")) return "multiImage id";
        const why = media(i, ["id", "altText"], "image");
        if (why) return why;
      }
      return null;
    }
    if (keys(content) === "article") return articleProblem(content.article, author);
    return `content keys ${keys(content)}`;
  };

  /**
   * Article content (Posts API, "Article"; the Article Post API page: LinkedIn scrapes no URL,
   * the partner sets the fields): `source` (the article's URL) and `title` required;
   * `description`, `thumbnail` (an image URN the author uploaded, processed) and
   * `thumbnailAltText` optional; nothing else.
   */
  const articleProblem = (a: unknown, author: string): string | null => {
    const art = (a ?? {}) as Record<string, unknown>;
    if (!subsetOf(a, ["source", "title", "description", "thumbnail", "thumbnailAltText"])) return `article keys ${keys(a)}`;
    if (typeof art.source !== "string" || !/^https?:\/\//.test(art.source) || !URL.canParse(art.source)) return `article source ${String(art.source)}`;
    if (typeof art.title !== "string" || !art.title.trim()) return "article title is required";
    for (const k of ["description", "thumbnailAltText"]) if (k in art && typeof art[k] !== "string") return `article ${k}`;
    if ("thumbnail" in art) {
      const id = String(art.thumbnail);
      const u = f.uploads.get(id);
      if (!id.startsWith("urn:li:image:") || !u?.bytes || u.kind !== "image") return `article thumbnail ${id} is not an uploaded image`;
      if (u.owner !== author) return `article thumbnail ${id} owned by ${u.owner}, not ${author}`;
      if (u.state !== "ready") return `article thumbnail ${id} is not processed (${u.state})`;
    }
    return null;
  };

  const initialize = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    u: URL,
    kind: "image" | "document",
    body: string,
    member: string | null,
    g: Grant,
  ) => {
    if (req.method !== "POST" || u.searchParams.get("action") !== "initializeUpload") return c.bad(res, `${kind} ${req.method} ${u.search}`);
    const next = c.next("linkedin-upload");
    if (next === "401") return json(res, 401, UNAUTHORIZED);
    if (c.refuseEarly(res, next, bearer(req))) return;
    const b = parseOrNull(body) as { initializeUploadRequest?: { owner?: string } } | null;
    const owner = b?.initializeUploadRequest?.owner ?? "";
    if (keys(b) !== "initializeUploadRequest" || keys(b!.initializeUploadRequest) !== "owner" || !actor.test(owner))
      return c.bad(res, `${kind} init body ${body}`);
    // The caller must be the owner, or administer the owning page (Documents API, permissions).
    if (mayActAs(owner, member, g)) return json(res, 403, ACCESS_DENIED(`${kind}s of ${owner}`));
    const id = `urn:li:${kind}:C${c.serial()}`;
    f.uploads.set(id, { id, owner, kind, bytes: null, contentType: null, state: "waiting", pollsLeft: kind === "document" ? f.processingPolls.linkedin : 0 });
    if (c.hideAnswer(req, res, next)) return;
    json(res, 200, { value: { uploadUrlExpiresAt: Date.now() + 3600_000, uploadUrl: `${c.url()}/li-upload/${encodeURIComponent(id)}`, [kind]: id } });
  };

  const put = (req: http.IncomingMessage, res: http.ServerResponse, u: URL, raw: Buffer) => {
    const id = decodeURIComponent(u.pathname.slice("/li-upload/".length));
    const up = f.uploads.get(id);
    if (req.method !== "PUT") return c.bad(res, `upload method ${req.method}`);
    if (!f.tokens.linkedin.access.has(bearer(req))) return json(res, 401, UNAUTHORIZED);
    if (!up || up.bytes) return c.bad(res, `upload to ${id}: ${up ? "already uploaded" : "unknown"}`);
    if (!raw.length) return c.bad(res, "upload without bytes");
    up.bytes = raw;
    up.contentType = String(req.headers["content-type"] ?? "");
    const format = sniff(raw);
    const allowed = up.kind === "image" ? IMAGE_FORMATS : DOCUMENT_FORMATS;
    if (!allowed.has(format)) {
      up.state = "failed";
      return c.bad(res, `LinkedIn ${up.kind}s are ${[...allowed].join(", ")}; ${id} is ${format}`, 201);
    }
    up.state = up.pollsLeft > 0 ? "processing" : "ready";
    res.writeHead(201).end();
  };

  /** GET /rest/images/{urn} and /rest/documents/{urn}: the status, one poll nearer AVAILABLE. */
  const status = (res: http.ServerResponse, kind: "image" | "document", urn: string, member: string | null, g: Grant) => {
    const up = f.uploads.get(urn);
    if (!up || up.kind !== kind) return json(res, 404, { status: 404, message: `${kind} ${urn} not found` });
    if (mayActAs(up.owner, member, g)) return json(res, 403, ACCESS_DENIED(urn));
    if (up.state === "processing" && --up.pollsLeft <= 0) up.state = "ready";
    const word = { waiting: "WAITING_UPLOAD", processing: "PROCESSING", ready: "AVAILABLE", failed: "PROCESSING_FAILED" }[up.state];
    json(res, 200, {
      id: urn,
      owner: up.owner,
      status: word,
      ...(up.state === "ready" && { downloadUrl: `${c.url()}/li-download/${encodeURIComponent(urn)}` }),
    });
  };

  const post = async (req: http.IncomingMessage, res: http.ServerResponse, body: string, member: string | null, g: Grant) => {
    const b = parseOrNull(body) as Record<string, any> | null;
    f.requests.push({ route: "linkedin", headers: req.headers, body: b });
    const next = c.next("linkedin");
    if (next === "401") return json(res, 401, UNAUTHORIZED);
    if (c.refuseEarly(res, next, bearer(req))) return;
    if (!b) return c.bad(res, "not JSON");
    if (
      keys(b) !== "author,commentary,distribution,isReshareDisabledByAuthor,lifecycleState,visibility" &&
      keys(b) !== "author,commentary,content,distribution,isReshareDisabledByAuthor,lifecycleState,visibility"
    )
      return c.bad(res, `keys ${keys(b)}`);
    if (!actor.test(b.author) || b.visibility !== "PUBLIC" || b.lifecycleState !== "PUBLISHED") return c.bad(res, "author/visibility/lifecycle");
    if (mayActAs(b.author, member, g)) return json(res, 403, ACCESS_DENIED(`posts as ${b.author}`));
    if (JSON.stringify(b.distribution) !== JSON.stringify({ feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] }))
      return c.bad(res, "distribution");
    if ("content" in b) {
      const why = contentProblem(b.content, b.author);
      if (why) return c.bad(res, why, 400, { status: 400, message: why });
    }
    if (typeof b.commentary !== "string") return c.bad(res, "commentary");
    if (next === "duplicate") return json(res, 422, { status: 422, code: "DUPLICATE_POST", message: "Content is a duplicate of urn:li:share:1" });
    const rendered = renderLittle(b.commentary);
    f.posts.linkedin.push(rendered.text);
    const id = `urn:li:share:${c.serial()}`;
    f.created.linkedin.push({ id, text: rendered.text, body: b, rendered });
    if (c.hideAnswer(req, res, next)) return;
    if (next === "created502") return json(res, 502, { message: "Bad Gateway" });
    await c.answerDelay();
    res.writeHead(201, { "x-restli-id": id }).end();
  };

  /** GET /rest/posts/{encoded URN}: the post as LinkedIn keeps it, or 404 once it took it down. */
  const readBack = (req: http.IncomingMessage, res: http.ServerResponse, encoded: string, member: string | null, g: Grant) => {
    if (c.refuseEarly(res, c.next("linkedin-read"), bearer(req))) return;
    if (encoded.includes(":")) return c.bad(res, `post path: the URN is not encoded (${encoded})`);
    const urn = decodeURIComponent(encoded);
    f.receiptReads.push({ route: "linkedin", id: urn });
    const found = f.created.linkedin.find((x) => x.id === urn && !f.dropped.has(urn));
    if (!found) return json(res, 404, { status: 404, serviceErrorCode: 0, code: "NOT_FOUND", message: `Post ${urn} not found` });
    if (mayActAs(String(found.body.author), member, g)) return json(res, 403, ACCESS_DENIED(`posts of ${found.body.author}`));
    const at = Date.now();
    json(res, 200, { id: urn, ...found.body, createdAt: at, lastModifiedAt: at, publishedAt: at, lifecycleStateInfo: { isEditedByAuthor: false } });
  };

  const comment = async (req: http.IncomingMessage, res: http.ServerResponse, encoded: string, body: string, member: string | null, g: Grant) => {
    const b = parseOrNull(body) as { actor?: string; object?: string; message?: { text?: unknown } } | null;
    const next = c.next("linkedin-comment");
    if (next === "401") return json(res, 401, UNAUTHORIZED);
    if (c.refuseEarly(res, next, bearer(req))) return;
    // A URN in a Rest.li path is one percent-encoded segment.
    if (encoded.includes(":")) return c.bad(res, `comment path: the URN is not encoded (${encoded})`);
    const urn = decodeURIComponent(encoded);
    if (!b || keys(b) !== "actor,message,object" || keys(b.message) !== "text") return c.bad(res, `comment keys ${keys(b)} / ${keys(b?.message)}`);
    if (b.object !== urn) return c.bad(res, `comment object ${b.object} is not the path's ${urn}`);
    if (!actor.test(b.actor ?? "")) return c.bad(res, `comment actor ${b.actor}`);
    if (mayActAs(b.actor!, member, g)) return json(res, 403, ACCESS_DENIED(`comments as ${b.actor}`));
    const text = b.message!.text;
    if (typeof text !== "string" || !text.trim() || Array.from(text).length > 1250) return c.bad(res, "comment message text");
    if (!f.created.linkedin.some((p) => p.id === urn)) return json(res, 404, { status: 404, message: `${urn} not found` });
    const id = String(c.serial());
    const commentUrn = `urn:li:comment:(${urn},${id})`;
    f.comments.push({ id: commentUrn, object: urn, actor: b.actor!, text });
    if (c.hideAnswer(req, res, next)) return;
    json(res, 201, { id, commentUrn, actor: b.actor, object: urn, message: { text }, created: { actor: b.actor, time: Date.now() } });
  };

  /** GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED: the token's member's page roles. */
  const aclsOf = (res: http.ServerResponse, u: URL, g: Grant) => {
    const q = Object.fromEntries(u.searchParams);
    if (q.q !== "roleAssignee") return c.bad(res, `organizationAcls finder ${q.q}`);
    const who = `urn:li:person:${g.member}`;
    const elements = f.organizations
      .filter((o) => g.member && o.admins.includes(g.member))
      .map((o) => ({ organization: `urn:li:organization:${o.id}`, role: "ADMINISTRATOR", state: "APPROVED", roleAssignee: who }))
      .filter((a) => (!q.role || a.role === q.role) && (!q.state || a.state === q.state));
    json(res, 200, { paging: { start: 0, count: 10, total: elements.length }, elements });
  };
  /** GET /rest/organizations/{id}: an organization's names. */
  const organization = (res: http.ServerResponse, id: string) => {
    const o = f.organizations.find((x) => x.id === id);
    if (!o) return json(res, 404, { status: 404, message: `organization ${id} not found` });
    json(res, 200, { id: Number(o.id), localizedName: o.name, vanityName: o.vanity });
  };

  const counts = (urn: string) => f.engagement.get(urn) ?? { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 };
  const METRIC = { IMPRESSION: "impressions", REACTION: "likes", COMMENT: "replies", RESHARE: "reposts" } as const;
  const QUERY_TYPES = ["IMPRESSION", "MEMBERS_REACHED", "RESHARE", "REACTION", "COMMENT", "POST_SAVE", "POST_SEND"];

  /** GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:urn%3Ali%3Ashare%3A1)&queryType=…&aggregation=TOTAL. */
  const memberAnalytics = (req: http.IncomingMessage, res: http.ServerResponse, u: URL, member: string | null) => {
    const next = c.next("linkedin-read");
    if (c.refuseEarly(res, next, bearer(req))) return;
    const q = Object.fromEntries(u.searchParams);
    const raw = /(?:^|&)entity=([^&]*)/.exec(u.search.slice(1))?.[1] ?? "";
    const union = /^\((share|ugcPost):(urn%3Ali%3A(share|ugcPost)%3A\d+)\)$/.exec(raw);
    if (q.q !== "entity" || !union || union[1] !== union[3]) return c.bad(res, `memberCreatorPostAnalytics q=${q.q} entity=${raw}`);
    if (!QUERY_TYPES.includes(q.queryType) || !["DAILY", "TOTAL"].includes(q.aggregation))
      return c.bad(res, `memberCreatorPostAnalytics queryType=${q.queryType} aggregation=${q.aggregation}`);
    const urn = decodeURIComponent(union[2]);
    f.reads.push({ route: "linkedin", ids: [urn] });
    const post = f.created.linkedin.find((x) => x.id === urn);
    if (!post) return json(res, 404, { status: 404, message: `${urn} not found` });
    if (post.body.author !== member) return json(res, 403, ACCESS_DENIED(`analytics of ${urn}`));
    const field = METRIC[q.queryType as keyof typeof METRIC];
    const metricType = { "com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1": q.queryType };
    json(res, 200, { paging: { start: 0, count: 10, total: 1 }, elements: [{ count: field ? counts(urn)[field] : 0, metricType }] });
  };

  /** GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=…&shares=List(…). */
  const pageStatistics = (req: http.IncomingMessage, res: http.ServerResponse, u: URL, g: Grant) => {
    const next = c.next("linkedin-read");
    if (c.refuseEarly(res, next, bearer(req))) return;
    const org = /^urn:li:organization:(\d+)$/.exec(u.searchParams.get("organizationalEntity") ?? "")?.[1];
    if (u.searchParams.get("q") !== "organizationalEntity" || !org) return c.bad(res, `organizationalEntityShareStatistics ${u.search}`);
    const page = f.organizations.find((o) => o.id === org);
    if (!page || !g.member || !page.admins.includes(g.member)) return json(res, 403, ACCESS_DENIED(`statistics of urn:li:organization:${org}`));
    const listed: string[] = [];
    for (const [name, kind] of [
      ["shares", "share"],
      ["ugcPosts", "ugcPost"],
    ] as const) {
      const list = new RegExp(`(?:^|&)${name}=List\\(([^)]*)\\)`).exec(u.search.slice(1))?.[1];
      if (list === undefined) continue;
      for (const item of list.split(",")) {
        if (!new RegExp(`^urn%3Ali%3A${kind}%3A\\d+$`).test(item)) return c.bad(res, `organizationalEntityShareStatistics ${name} item ${item}`);
        listed.push(decodeURIComponent(item));
      }
    }
    f.reads.push({ route: "linkedin", ids: listed });
    const elements = listed
      .filter((urn) => f.created.linkedin.some((x) => x.id === urn && x.body.author === `urn:li:organization:${org}`))
      .map((urn) => {
        const n = counts(urn);
        return {
          organizationalEntity: `urn:li:organization:${org}`,
          [urn.split(":")[2]]: urn,
          totalShareStatistics: {
            impressionCount: n.impressions,
            uniqueImpressionsCount: n.impressions,
            likeCount: n.likes,
            commentCount: n.replies,
            shareCount: n.reposts,
            clickCount: n.clicks,
            engagement: n.impressions ? (n.likes + n.replies + n.reposts + n.clicks) / n.impressions : 0,
          },
        };
      });
    json(res, 200, { paging: { start: 0, count: 10, total: elements.length }, elements });
  };

  return async (req: http.IncomingMessage, res: http.ServerResponse, u: URL, raw: Buffer): Promise<boolean> => {
    const p = u.pathname;
    const body = raw.toString("utf8");
    if (p.startsWith("/li-upload/")) {
      f.mediaRequests.push({ path: p, method: req.method!, headers: req.headers });
      return (put(req, res, u, raw), true);
    }
    if (p === "/v2/userinfo") {
      const g = f.tokens.linkedin.access.get(bearer(req));
      if (!g) return (json(res, 401, UNAUTHORIZED), true);
      if (!g.scopes.has("openid") || !g.scopes.has("profile")) return (json(res, 403, ACCESS_DENIED("userinfo")), true);
      const who = f.signIn.linkedin.person;
      json(res, 200, { sub: g.member ?? who.sub, name: who.name, ...(g.scopes.has("email") && { email: who.email, email_verified: true }) });
      return true;
    }
    if (!p.startsWith("/rest/")) return false;
    const readPost = req.method === "GET" ? /^\/rest\/posts\/([^/]+)$/.exec(p) : null;
    if (
      p !== "/rest/posts" &&
      !readPost &&
      !p.startsWith("/rest/socialActions/") &&
      !p.startsWith("/rest/organization") &&
      p !== "/rest/memberCreatorPostAnalytics"
    )
      f.mediaRequests.push({ path: p, method: req.method!, headers: req.headers });
    // Every versioned LinkedIn endpoint: a retired or unreleased version is answered 426.
    const v = String(req.headers["linkedin-version"] ?? "");
    if (!/^\d{6}$/.test(v)) return (c.bad(res, `LinkedIn-Version ${v}`), true);
    if (v < oldest || v > newest) return (json(res, 426, { status: 426, code: "NONEXISTENT_VERSION", message: `Requested version ${v} is not active` }), true);
    if (req.headers["x-restli-protocol-version"] !== "2.0.0") return (c.bad(res, "X-Restli-Protocol-Version"), true);
    const token = bearer(req);
    const g = f.tokens.linkedin.access.get(token);
    if (!g) return (json(res, 401, UNAUTHORIZED), true);
    // Pages are listed with rw_organization_admin; everything else is written (or read back)
    // as the member, or as a page (w_organization_social, checked where the author is named).
    const pages = p === "/rest/organizationAcls" || p.startsWith("/rest/organizations/") || p === "/rest/organizationalEntityShareStatistics";
    const asPage = !pages && /"urn:li:organization:/.test(body);
    const analytics = p === "/rest/memberCreatorPostAnalytics";
    const readOf = readPost && f.created.linkedin.find((x) => x.id === decodeURIComponent(readPost[1]));
    const scope = readPost
      ? String(readOf?.body.author).startsWith("urn:li:organization:")
        ? "r_organization_social"
        : "r_member_social"
      : analytics
        ? "r_member_postAnalytics"
        : pages
          ? "rw_organization_admin"
          : asPage
            ? "w_organization_social"
            : "w_member_social";
    // A page's upload status is read with the page's scope; the pages list only with its own.
    const mediaRead = req.method === "GET" && /^\/rest\/(image|document)s\//.test(p);
    if (!g.scopes.has(scope) && !(mediaRead && g.scopes.has("w_organization_social"))) {
      f.refusals.push(`${p}: missing ${scope}`);
      return (json(res, 403, ACCESS_DENIED(p)), true);
    }
    if (req.method === "POST" && !String(req.headers["content-type"]).startsWith("application/json")) return (c.bad(res, `${p} content-type`), true);
    const member = memberOf(g);
    const urn = /^\/rest\/(image|document)s\/(.+)$/.exec(p);
    const commented = /^\/rest\/socialActions\/([^/]+)\/comments$/.exec(p);
    const page = /^\/rest\/organizations\/(\d+)$/.exec(p);
    if (p === "/rest/organizationAcls" && req.method === "GET") aclsOf(res, u, g);
    else if (analytics && req.method === "GET") memberAnalytics(req, res, u, member);
    else if (p === "/rest/organizationalEntityShareStatistics" && req.method === "GET") pageStatistics(req, res, u, g);
    else if (page && req.method === "GET") organization(res, page[1]);
    else if (commented && req.method === "POST") await comment(req, res, commented[1], body, member, g);
    else if (urn && req.method === "GET") status(res, urn[1] as "image" | "document", decodeURIComponent(urn[2]), member, g);
    else if (p === "/rest/images") initialize(req, res, u, "image", body, member, g);
    else if (p === "/rest/documents") initialize(req, res, u, "document", body, member, g);
    else if (p === "/rest/posts" && req.method === "POST") await post(req, res, body, member, g);
    else if (readPost) readBack(req, res, readPost[1], member, g);
    else c.bad(res, `LinkedIn: ${req.method} ${p} is not an endpoint the fake knows`, 404);
    return true;
  };
}
