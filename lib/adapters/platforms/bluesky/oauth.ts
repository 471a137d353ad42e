import { createHash } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import type { SimpleStore } from "@atproto-labs/simple-store";
import type {
  NodeOAuthClient,
  NodeSavedSession,
  NodeSavedSessionStore,
  NodeSavedStateStore,
  OAuthClientMetadataInput,
  OAuthSession,
} from "@atproto/oauth-client-node";
import type { Db } from "@/lib/adapters/db";
import { authAccounts, networkSignIns } from "@/drizzle/schema";
import { originIsLoopback } from "@/lib/core/address-policy.mjs";
import { config } from "@/lib/core/config";
import { AppError, invalid } from "@/lib/core/errors";
import { redactSecrets } from "@/lib/core/redact";
import type { OAuthNetworkSession } from "@/lib/domain/ports";
import { PublishError } from "@/lib/domain/networks/platform";
import { send } from "../http";
import { Answered, type Answer } from "../request";
import { markNeedsReconnect, withRefreshLock, type Account } from "../tokens";
import { IdentityError, normalHandle, resolveDid, resolveIdentity, type Identity } from "./identity";
import { NET, xrpcRequest, type Signed } from "./xrpc";

// Connecting Bluesky with atproto OAuth (atproto.com/specs/oauth), through Bluesky's own client
// (@atproto/oauth-client-node): the owner's handle resolves to the account's PDS as for an app
// password (identity.ts), the PDS names its authorization server, the request is pushed (PAR)
// with PKCE, and the tokens are bound to a DPoP key of this connection's own. The owner signs in
// on the PDS's page and comes back to CALLBACK. What the client keeps lives in the database:
// a sign-in under way in network_sign_ins (bound to the owner who started it), the session in
// the connection's row of auth_accounts (its tokens as every network's, the DPoP key beside
// them). Every request goes through the checked request (the PDS is named by the account's own
// records). docs/platforms.md, "Bluesky".

const PROVIDER = "bluesky";
/** Posting and reading posts: what an app password may do (atproto's transitional scope). */
export const BLUESKY_SCOPE = "atproto transition:generic";
export const CALLBACK_PATH = "/settings/connections/bluesky/callback";
export const METADATA_PATH = "/oauth/bluesky/client-metadata.json";
const SIGN_IN_MINUTES = 10;

const base = (url: string) => url.replace(/\/+$/, "");
const hashed = (state: string) => createHash("sha256").update(state).digest("base64url");
const cannot = (message: string, hint = "Check the handle (as Bluesky shows it on the profile), then try again.") =>
  new AppError("action_failed", message, hint);

/**
 * Where the PDS sends the owner back. On a loopback deployment atproto's loopback client rules
 * apply: the address must be 127.0.0.1 or [::1], never `localhost` (the callback then moves the
 * browser to APP_URL's own host, where its session cookie is).
 */
export function redirectUri(): string {
  const u = new URL(config().origin);
  if (u.hostname === "localhost") u.hostname = "127.0.0.1";
  return `${u.origin}${CALLBACK_PATH}`;
}

/**
 * This service as an OAuth client. On loopback, atproto's loopback client (its client_id is
 * `http://localhost` with the redirect URI and scope in its query; the PDS asks for no
 * document); elsewhere the document this service serves at METADATA_PATH, whose address is its
 * client_id. A public client either way: no key of its own to keep, DPoP-bound tokens.
 */
export function clientMetadata(): OAuthClientMetadataInput {
  const origin = config().origin;
  const common = {
    scope: BLUESKY_SCOPE,
    grant_types: ["authorization_code", "refresh_token"] as ["authorization_code", "refresh_token"],
    response_types: ["code"] as ["code"],
    token_endpoint_auth_method: "none" as const,
    dpop_bound_access_tokens: true,
  };
  if (originIsLoopback(origin)) {
    const redirect = redirectUri();
    const q = `redirect_uri=${encodeURIComponent(redirect)}&scope=${encodeURIComponent(BLUESKY_SCOPE)}`;
    return { ...common, client_id: `http://localhost?${q}`, redirect_uris: [redirect as `http://127.0.0.1${string}`], application_type: "native" };
  }
  return {
    ...common,
    client_id: `${origin}${METADATA_PATH}`,
    client_name: "Contentio",
    client_uri: origin as `https://${string}`,
    redirect_uris: [redirectUri() as `https://${string}`],
    application_type: "web",
  };
}

/** The library's identity resolution replaced by the service's own (DNS and HTTPS first, BLUESKY_RESOLVER_URL, BLUESKY_PLC_URL). */
const identityResolver = {
  async resolve(input: string) {
    const who: Identity = input.startsWith("did:") ? await resolveDid(input) : await resolveIdentity(input);
    const didDoc = {
      "@context": ["https://www.w3.org/ns/did/v1"],
      id: who.did,
      alsoKnownAs: [`at://${who.handle}`],
      service: [{ id: "#atproto_pds", type: "AtprotoPersonalDataServer", serviceEndpoint: who.pds }],
    };
    return { did: who.did as `did:plc:${string}`, handle: who.handle, didDoc: didDoc as never };
  },
};

/** The client's fetch, through the platforms' checked request (the PDS and its authorization server are the account's choice, not the service's). */
async function guardedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => void (headers[k] = v));
  const body = req.body ? new Uint8Array(await req.arrayBuffer()) : undefined;
  const a = (await send(NET, req.url, { method: req.method, headers, body, guarded: true })) as Answered;
  const out = new Headers();
  for (const [k, v] of Object.entries(a.raw)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(", ") : v);
  return new Response([204, 205, 304].includes(a.status) ? null : new Uint8Array(a.body), { status: a.status, headers: out });
}

/** A sign-in under way, bound to the owner who started it: another owner's, an expired or a used one is unknown. */
function signInStore(db: Db, owner: string | undefined): NodeSavedStateStore {
  return {
    async set(state, data) {
      if (!owner) throw new Error("a sign-in is started by an owner");
      const expiresAt = new Date(Date.now() + SIGN_IN_MINUTES * 60_000);
      await db.insert(networkSignIns).values({ stateHash: hashed(state), userId: owner, network: PROVIDER, data: data as never, expiresAt });
    },
    // Read once: taken from the table as it is read, so that two callbacks with one state cannot both go on.
    async get(state) {
      if (!owner) return undefined;
      const [row] = await db
        .delete(networkSignIns)
        .where(and(eq(networkSignIns.stateHash, hashed(state)), eq(networkSignIns.userId, owner), gt(networkSignIns.expiresAt, new Date())))
        .returning({ data: networkSignIns.data });
      return row?.data as never;
    },
    async del() {},
  };
}

const connectionKey = (did: string) => and(eq(authAccounts.provider, PROVIDER), eq(authAccounts.providerAccountId, did), eq(authAccounts.type, "oauth"));

/** A stored connection's row as the client's session. */
function savedOf(r: typeof authAccounts.$inferSelect): NodeSavedSession | undefined {
  if (!r.dpop || !r.access_token) return undefined;
  return {
    dpopJwk: r.dpop.key as never,
    authMethod: r.dpop.authMethod as never,
    tokenSet: {
      iss: r.dpop.iss,
      sub: r.providerAccountId as `did:plc:${string}`,
      aud: r.dpop.aud,
      scope: (r.scope ?? BLUESKY_SCOPE) as NodeSavedSession["tokenSet"]["scope"],
      access_token: r.access_token,
      ...(r.refresh_token && { refresh_token: r.refresh_token }),
      token_type: "DPoP",
      ...(r.expires_at && { expires_at: new Date(r.expires_at * 1000).toISOString() }),
    },
  };
}

/** The client's session as a connection's columns. */
function columnsOf(s: NodeSavedSession) {
  const t = s.tokenSet;
  return {
    access_token: t.access_token,
    refresh_token: t.refresh_token ?? null,
    expires_at: t.expires_at ? Math.floor(Date.parse(t.expires_at) / 1000) : null,
    scope: t.scope,
    token_type: "DPoP",
    dpop: { key: s.dpopJwk as Record<string, unknown>, authMethod: s.authMethod, iss: t.iss, aud: t.aud },
  };
}

/** Sessions of connected accounts, in their rows; renewed ones are written back, and one the PDS refused leaves the connection needing a reconnect. */
function connectionStore(db: Db): NodeSavedSessionStore {
  return {
    async get(did) {
      const [r] = await db.select().from(authAccounts).where(connectionKey(did));
      return r && savedOf(r);
    },
    async set(did, s) {
      await db
        .update(authAccounts)
        .set({ ...columnsOf(s), status: "connected", updatedAt: new Date() })
        .where(connectionKey(did));
    },
    async del(did) {
      await db
        .update(authAccounts)
        .set({ access_token: null, refresh_token: null, status: "needs_reconnect", updatedAt: new Date() })
        .where(connectionKey(did));
    },
  };
}

/** Sessions held in memory only: one just made (kept only once the owner's connection is stored), or a removed connection's (to end it). */
function heldStore<V extends NonNullable<unknown>>(held: Map<string, V>): SimpleStore<string, V> {
  return {
    get: async (did) => held.get(did),
    set: async (did, s) => void held.set(did, s),
    del: async (did) => void held.delete(did),
  };
}

/** The client over the database's stores; with no database (ending a removed connection's session), over `sessions` alone. */
async function oauthClient(db: Db | null, o: { owner?: string; sessions?: NodeSavedSessionStore } = {}): Promise<NodeOAuthClient> {
  // Loaded with the first OAuth sign-in or post: most processes never make one.
  const { NodeOAuthClient } = await import("@atproto/oauth-client-node");
  return new NodeOAuthClient({
    clientMetadata: clientMetadata(),
    responseMode: "query",
    // Plain http only where the checked request allows it: to loopback, from a loopback deployment.
    allowHttp: originIsLoopback(config().origin),
    stateStore: db ? signInStore(db, o.owner) : heldStore(new Map()),
    sessionStore: o.sessions ?? connectionStore(db!),
    identityResolver,
    fetch: guardedFetch,
    // A renewal (refresh tokens rotate) holds the account's refresh lock, shared by every process.
    requestLock: (name, fn) => {
      const did = /did:[a-z]+:[^\s]+$/.exec(name)?.[0];
      return did && db ? withRefreshLock(db, PROVIDER, did, NET, async () => fn()) : Promise.resolve(fn());
    },
  });
}

/** The first refusal of ours among an error's causes (an address refused, the network unreachable), or of the identity. */
function ourCause(e: unknown): PublishError | IdentityError | AppError | null {
  for (let c = e, i = 0; c && i < 6; c = (c as { cause?: unknown }).cause, i++)
    if (c instanceof PublishError || c instanceof IdentityError || c instanceof AppError) return c;
  return null;
}

const said = (e: unknown) => redactSecrets(String((e as Error)?.message ?? e), 200);

/** Starts the owner's sign-in: the address of the sign-in page of the account's authorization server (its PDS, usually). */
export async function startOAuth(db: Db, rawHandle: string, owner: string): Promise<string> {
  const handle = normalHandle(rawHandle);
  if (!handle) throw invalid([{ path: "handle", message: "A Bluesky handle is a domain name, e.g. alice.bsky.social" }]);
  const client = await oauthClient(db, { owner });
  try {
    return (await client.authorize(handle, { scope: BLUESKY_SCOPE })).toString();
  } catch (e) {
    const ours = ourCause(e);
    if (ours instanceof AppError) throw ours;
    throw cannot(ours ? ours.message : `${NET} did not start the sign-in for @${handle} (${said(e)}).`);
  }
}

/**
 * Finishes the owner's sign-in with what their browser came back with. The sign-in must be
 * this owner's, unused and recent. `keep` stores the session; if it refuses (the account is
 * another owner's), the new session is ended on the PDS.
 */
export async function finishOAuth<T>(db: Db, params: URLSearchParams, owner: string, keep: (s: OAuthNetworkSession) => Promise<T>): Promise<T> {
  const held = new Map<string, NodeSavedSession>();
  const client = await oauthClient(db, { owner, sessions: heldStore(held) });
  let did: string;
  try {
    did = (await client.callback(params)).session.did;
  } catch (e) {
    const ours = ourCause(e);
    if (ours) throw cannot(ours.message, "Connect Bluesky again.");
    if (params.get("error")) throw cannot(`${NET} did not give access (${redactSecrets(params.get("error")!, 100)}).`, "Connect Bluesky again.");
    if (/Unknown authorization session/.test(said(e)))
      throw cannot(
        "This Bluesky sign-in is not one you started here, or it was already used or has expired; nothing was connected.",
        "Connect Bluesky again from Settings > Connections.",
      );
    throw cannot(`${NET} did not finish the sign-in (${said(e)}).`, "Connect Bluesky again.");
  }
  const s = held.get(did)!;
  try {
    const who = await resolveDid(did);
    return await keep({ accountId: did, handle: who.handle, serviceUrl: base(s.tokenSet.aud), ...columnsOf(s), refresh_token: s.tokenSet.refresh_token ?? "" });
  } catch (e) {
    await client.revoke(did).catch(() => {});
    if (e instanceof IdentityError) throw cannot(e.message);
    throw e;
  }
}

/** Ends a removed connection's OAuth session on its authorization server (token revocation). Best effort. */
export async function revokeOAuth(row: typeof authAccounts.$inferSelect): Promise<void> {
  const saved = savedOf(row);
  if (!saved) return;
  const client = await oauthClient(null, { sessions: heldStore(new Map([[row.providerAccountId, saved]])) });
  await client.revoke(row.providerAccountId).catch(() => {});
}

/** Why a call through the session could not be made (nothing was sent: what was sent and lost is our own PublishError). */
async function failure(db: Db, acc: Account, e: unknown): Promise<PublishError> {
  const ours = ourCause(e);
  if (ours instanceof PublishError) return ours;
  const name = (e as Error)?.name ?? "";
  if (/^Token(Refresh|Revoked|Invalid)Error$/.test(name)) {
    await markNeedsReconnect(db, acc);
    return new PublishError("failed", `${NET} refused to renew the OAuth session (${said(e)}); the owner must connect ${NET} again in Settings > Connections.`);
  }
  return new PublishError("retry", `The ${NET} session could not be used (${said(e)}); nothing was sent.`);
}

/** XRPC calls as the account through its OAuth session: DPoP-bound, renewed by the client when it expires or the PDS refuses it. */
export function oauthCall(acc: Account, db: Db): Signed {
  let session: Promise<OAuthSession> | undefined;
  return async (nsid, c = {}) => {
    const { path, ...init } = xrpcRequest(nsid, c);
    let res: Response;
    try {
      session ??= oauthClient(db).then((client) => client.restore(acc.providerAccountId));
      res = await (await session).fetchHandler(path, init as RequestInit);
    } catch (e) {
      session = undefined;
      throw await failure(db, acc, e);
    }
    const raw: Record<string, string> = {};
    res.headers.forEach((v, k) => void (raw[k] = v));
    return new Answered(res.status, raw, Buffer.from(await res.arrayBuffer())) satisfies Answer;
  };
}
