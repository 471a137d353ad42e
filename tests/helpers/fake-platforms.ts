import http from "node:http";
import type { AddressInfo } from "node:net";

// Fake LinkedIn and X on one loopback HTTP server, driven through the real adapters. It checks
// the exact request shapes LinkedIn's Posts API and X API v2 demand, counts posts per text,
// and can be told to misbehave for the next requests.

export type Misbehaviour = "429" | "500" | "timeout" | "reset" | "duplicate" | "401" | "echo" | "echo500";
type Route = "linkedin" | "x";

export type FakePlatforms = {
  url: string;
  /** Texts each platform created (a post answered with timeout/reset is still created). */
  posts: Record<Route, string[]>;
  refreshes: Record<Route, number>;
  /** Requests refused because their shape was wrong (must stay empty). */
  badRequests: string[];
  /** Every post/tweet request as received (headers and parsed body), to check its exact shape. */
  requests: { route: Route; headers: http.IncomingHttpHeaders; body: unknown }[];
  /** Valid access tokens and the current refresh token, per platform. */
  tokens: Record<Route, { access: Set<string>; refresh: string }>;
  misbehave: (route: Route, ...what: Misbehaviour[]) => void;
  /** Forgets queued misbehaviour. */
  calm: () => void;
  count: (route: Route, text: string) => number;
  close: () => Promise<void>;
};

const read = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let b = "";
    req.on("data", (c) => (b += c));
    req.on("end", () => resolve(b));
  });

export async function startFakePlatforms(opts: { refreshDelayMs?: number; linkedinVersion?: string } = {}): Promise<FakePlatforms> {
  const queue: Record<Route, Misbehaviour[]> = { linkedin: [], x: [] };
  let serial = 0;
  const f = {
    posts: { linkedin: [] as string[], x: [] as string[] },
    refreshes: { linkedin: 0, x: 0 },
    badRequests: [] as string[],
    requests: [] as FakePlatforms["requests"],
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

  const server = http.createServer(async (req, res) => {
    const body = await read(req);
    const route: Route | null = req.url === "/rest/posts" ? "linkedin" : req.url === "/2/tweets" ? "x" : null;
    if (route) {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        // recorded as null; refused below
      }
      f.requests.push({ route, headers: req.headers, body: parsed });
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const next = queue[route].shift();
      if (next === "401" || !f.tokens[route].access.has(token)) return json(res, 401, { message: "Unauthorized" });
      if (next === "429")
        return json(
          res,
          429,
          { title: "Too Many Requests" },
          { "x-rate-limit-reset": String(Math.floor(Date.now() / 1000) + 60), "x-rate-limit-remaining": "0" },
        );
      if (next === "500") return json(res, 503, { message: "Service Unavailable" });
      // Error bodies that echo the caller's credentials, labelled and bare, as some gateways do.
      if (next === "echo" || next === "echo500") {
        return json(res, next === "echo" ? 400 : 503, {
          message: `Bad request: Authorization: Bearer ${token}`,
          detail: `${token} was rejected`,
          debug: `access_token=${token}&client_secret=li-secret`,
          echo: { access_token: token },
        });
      }
      let text: string;
      try {
        const b = JSON.parse(body);
        if (route === "linkedin") {
          if (req.headers["linkedin-version"] !== (opts.linkedinVersion ?? "202510")) return bad(res, `LinkedIn-Version ${req.headers["linkedin-version"]}`);
          if (req.headers["x-restli-protocol-version"] !== "2.0.0") return bad(res, "X-Restli-Protocol-Version");
          const keys = Object.keys(b).sort().join(",");
          if (keys !== "author,commentary,distribution,isReshareDisabledByAuthor,lifecycleState,visibility") return bad(res, `keys ${keys}`);
          if (!/^urn:li:person:.+/.test(b.author) || b.visibility !== "PUBLIC" || b.lifecycleState !== "PUBLISHED")
            return bad(res, "author/visibility/lifecycle");
          if (JSON.stringify(b.distribution) !== JSON.stringify({ feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] }))
            return bad(res, "distribution");
          text = b.commentary;
        } else {
          if (Object.keys(b).join(",") !== "text" || typeof b.text !== "string") return bad(res, `tweet keys ${Object.keys(b)}`);
          text = b.text;
        }
        if (!String(req.headers["content-type"]).startsWith("application/json")) return bad(res, "content-type");
      } catch {
        return bad(res, "not JSON");
      }
      if (next === "duplicate") {
        return route === "linkedin"
          ? json(res, 422, { status: 422, code: "DUPLICATE_POST", message: "Content is a duplicate of urn:li:share:1" })
          : json(res, 403, { detail: "You are not allowed to create a Tweet with duplicate content." });
      }
      f.posts[route].push(text);
      const id = String(++serial);
      if (next === "timeout") return void hanging.add(res);
      if (next === "reset") return void req.socket.destroy();
      return route === "linkedin" ? res.writeHead(201, { "x-restli-id": `urn:li:share:${id}` }).end() : json(res, 201, { data: { id, text } });
    }
    // OAuth 2.0 refresh with rotation: the old refresh token stops working.
    const oauth: Route | null = req.url === "/oauth/v2/accessToken" ? "linkedin" : req.url === "/2/oauth2/token" ? "x" : null;
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
    calm: () => {
      queue.linkedin.length = 0;
      queue.x.length = 0;
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
