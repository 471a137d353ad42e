import http from "node:http";
import type { AddressInfo } from "node:net";
import { signInScopes } from "@/lib/domain/networks/scopes";
import { fakeContext } from "./fakes/context";
import { linkedinRoutes } from "./fakes/linkedin";
import { signInRoutes } from "./fakes/sign-in";
import type { FakeState, Grant, Misbehaviour, Person, Queue, Route, SignIn } from "./fakes/state";
import { json } from "./fakes/state";
import { xRoutes } from "./fakes/x";

export type { Counts, Created, Misbehaviour, Person, Queue, Upload } from "./fakes/state";

// Fake LinkedIn and X on one loopback HTTP server, driven through the real adapters: their
// sign-in (OpenID Connect, OAuth 2.0 with PKCE), publishing APIs and media uploads. X is held
// to its official OpenAPI document, LinkedIn to the rules its docs state (fakes/). It keeps
// what was uploaded and posted, records every request outside the contract (`badRequests`,
// which the fixture checks after each test) and can be told to misbehave.

export type FakePlatforms = FakeState & {
  url: string;
  misbehave: (route: Queue, ...what: Misbehaviour[]) => void;
  /** The k-th next request of `route` (1: the next one) misbehaves; those before it go through. */
  failAt: (route: Queue, k: number, what: Misbehaviour) => void;
  /** The network takes down a post it accepted (LinkedIn's post-processing, a deleted tweet): read back, it is gone. */
  drop: (route: Route, id: string) => void;
  /** Forgets queued misbehaviour. */
  calm: () => void;
  count: (route: Route, text: string) => number;
  /** Accepts `token` with these scopes (default: what this service's sign-in asks for), acting for `member`. */
  grant: (route: Route, token: string, grant?: { scopes?: string[]; member?: string }) => void;
  close: () => Promise<void>;
};

/** What a connection made through this service's sign-in today is granted. */
const grantedAtSignIn = (route: Route, member?: string): Grant => ({ scopes: new Set(signInScopes(route)), member });

const signIn = (person: Person, issueRefreshToken: boolean): SignIn => ({
  person,
  authorizations: [],
  tokenRequests: [],
  errors: [],
  withheld: [],
  issueRefreshToken,
  issued: [],
  revoked: [],
});

/**
 * `linkedinMinVersion`: the oldest LinkedIn-Version still active (fakes/linkedin.ts).
 * `answerDelayMs`: how long a post or tweet takes to be answered (the benchmark's latency).
 * `linkedinPartner`: LinkedIn treats the app as an approved partner and gives refresh tokens.
 */
export async function startFakePlatforms(
  opts: { refreshDelayMs?: number; linkedinMinVersion?: string; answerDelayMs?: number; linkedinPartner?: boolean } = {},
): Promise<FakePlatforms> {
  let url = "";
  const f: FakeState = {
    posts: { linkedin: [], x: [] },
    created: { linkedin: [], x: [] },
    comments: [],
    organizations: [],
    uploads: new Map(),
    refreshes: { linkedin: 0, x: 0 },
    badRequests: [],
    refusals: [],
    requests: [],
    mediaRequests: [],
    tokens: {
      linkedin: {
        access: new Map([["li-access-0", grantedAtSignIn("linkedin")]]),
        refresh: "li-refresh-0",
        refreshGrant: grantedAtSignIn("linkedin"),
        refreshGrants: new Map(),
      },
      x: { access: new Map([["x-access-0", grantedAtSignIn("x")]]), refresh: "x-refresh-0", refreshGrant: grantedAtSignIn("x"), refreshGrants: new Map() },
    },
    signIn: {
      linkedin: signIn({ sub: "li-member-1", name: "Lena Linked", email: "lena@example.com" }, !!opts.linkedinPartner),
      x: signIn({ sub: "2244994945", name: "Wendy on X", username: "wendy_w" }, true),
    },
    processingPolls: { x: 2, linkedin: 2 },
    xDailyRemaining: 100_000,
    xPostsPer15Min: 100,
    xSelfServe: false,
    xCredits: null,
    engagement: new Map(),
    reads: [],
    dropped: new Set(),
    receiptReads: [],
  };
  const c = fakeContext(f, () => url, opts.answerDelayMs ?? 0, opts.refreshDelayMs ?? 50);
  const routes = [await signInRoutes(c), xRoutes(c), linkedinRoutes(c, opts.linkedinMinVersion)];

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const u = new URL(req.url!, "http://fake");
    try {
      for (const route of routes) if (await route(req, res, u, raw)) return;
      c.bad(res, `${req.method} ${u.pathname}: no such endpoint on LinkedIn or X`, 404);
    } catch (e) {
      f.badRequests.push(`the fake failed on ${req.method} ${u.pathname}: ${(e as Error).stack}`);
      if (!res.headersSent) json(res, 500, { message: "fake error" });
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(f, {
    url,
    misbehave: (route: Queue, ...what: Misbehaviour[]) => void c.queue[route].push(...what),
    failAt: (route: Queue, k: number, what: Misbehaviour) => void c.queue[route].push(...Array<Misbehaviour>(k - 1).fill("ok"), what),
    drop: (_route: Route, id: string) => void f.dropped.add(id),
    calm: () => {
      for (const q of Object.values(c.queue)) q.length = 0;
    },
    count: (route: Route, text: string) => f.posts[route].filter((p) => p === text).length,
    grant: (route: Route, token: string, g: { scopes?: string[]; member?: string } = {}) => {
      f.tokens[route].access.set(token, g.scopes ? { scopes: new Set(g.scopes), member: g.member } : grantedAtSignIn(route, g.member));
    },
    close: async () => {
      for (const r of c.hanging) r.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  });
}

/** A server's environment that sends LinkedIn and X (sign-in and publishing) to the fakes. */
export const fakePlatformEnv = (fake: FakePlatforms) => ({
  LINKEDIN_API_URL: fake.url,
  LINKEDIN_OAUTH_URL: fake.url,
  X_API_URL: fake.url,
  X_OAUTH_URL: fake.url,
  // App credentials make the real adapters the publishing path (else: the sandbox).
  LINKEDIN_CLIENT_ID: "li-app",
  LINKEDIN_CLIENT_SECRET: "li-secret",
  X_CLIENT_ID: "x-app",
  X_CLIENT_SECRET: "x-secret",
});
