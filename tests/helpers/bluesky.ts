import { randomBytes } from "node:crypto";
import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { AtpAgent } from "@atproto/api";
import type { Page } from "playwright-core";
import { TestNetwork, TestNetworkNoAppView } from "@atproto/dev-env";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { connectWithPassword } from "@/lib/domain/accounts/password";
import { makeUser, type TestUser } from "./api";
import { reconfigure } from "./env";
import { freePort } from "./net";
import { tempDatabase } from "./temp-database";

// A real Bluesky network on loopback for the tests: the PDS Bluesky runs (@atproto/pds, from
// @atproto/dev-env's TestNetworkNoAppView) and a PLC directory, on SQLite in a temporary
// folder, on this worker's ports. Handles end in `.test`: the PDS resolves them
// (com.atproto.identity.resolveHandle), the PLC directory their DIDs. Records are read back
// from the PDS itself. With `appView`, the whole network (dev-env's TestNetwork): also the
// AppView Bluesky runs (@atproto/bsky, which counts likes, reposts, replies and quotes) and its
// moderation service, on a database of their own on the machine's PostgreSQL (DATABASE_URL's
// server, else 127.0.0.1:5432); dev-env also wants a Redis address (REDIS_URL's, else
// 127.0.0.1:6379), which this version's AppView does not use.

const POSTGRES = () => process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_HOST = () => new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379").host;

export type BlueskyAccount = {
  did: string;
  handle: string;
  /** The account's own password (what the service must never be given). */
  password: string;
  /** An app password made for this service, as the owner would make one in Bluesky's settings. */
  appPassword: string;
  /** Signed in as the account (with its own password): what the test reads and writes as the owner on Bluesky. */
  agent: AtpAgent;
};

export type StoredRecord = { uri: string; cid: string; value: Record<string, unknown> & { text?: string } };

/** An HTTP proxy in front of the PDS: which XRPC methods reached it, and an answer that is lost on the way back. */
export type PdsProxy = {
  url: string;
  /** The NSID of every call that went through, in order. */
  calls: string[];
  /** The path and query of every call, in order. */
  urls: string[];
  /** The `nth` next call of `nsid` (1: the next) reaches the PDS and is carried out, but the connection is cut before its answer comes back. */
  loseAnswer(nsid: string, nth?: number): void;
  /** The next call of `nsid` never reaches the PDS: the proxy answers it with this. */
  answer(nsid: string, status: number, body: unknown, headers?: Record<string, string>): void;
  close(): Promise<void>;
};

export type Bluesky = {
  pdsUrl: string;
  plcUrl: string;
  /** The service's configuration that sends every Bluesky request to this network. */
  env: Record<string, string>;
  /** A new account `{name}-{random}.test`, with an app password. */
  account(name: string): Promise<BlueskyAccount>;
  /** Every record of `collection` in the account's repository, newest first, as the PDS holds them. */
  records(did: string, collection?: string): Promise<StoredRecord[]>;
  /** How many atproto OAuth sessions the PDS holds for the account (its authorization server's tokens): revoked ones are gone. */
  oauthSessions(did: string): Promise<number>;
  /** Points the account's DID document at another PDS address (signed with the PDS's PLC rotation key). */
  movePds(did: string, endpoint: string): Promise<void>;
  /** A proxy to the PDS (store its url as a connection's serviceUrl to send that account's calls through it), or to `target`. */
  proxy(target?: string): Promise<PdsProxy>;
  /** With an AppView: its address, and a wait until it has indexed everything the PDS holds. */
  appView?: { url: string; indexed(): Promise<void> };
  close(): Promise<void>;
};

/** An environment variable set while `fn` runs (dev-env reads its settings from some). */
async function withEnv<T>(name: string, value: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  process.env[name] = value;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

export async function startBluesky(opts: { appView?: boolean } = {}): Promise<Bluesky> {
  // The PDS's databases and blobs in a folder of their own, removed when it closes (dev-env
  // makes its folders in the system's temporary folder, which TMPDIR names meanwhile).
  const dir = await mkdtemp(join(tmpdir(), "contentio-bluesky-"));
  const ports = { pds: { port: await freePort() }, plc: { port: await freePort() } };
  const pg = opts.appView ? await tempDatabase(POSTGRES(), "contentio_appview") : undefined;
  const net: TestNetworkNoAppView | TestNetwork = await withEnv("TMPDIR", dir, () =>
    pg
      ? withEnv("REDIS_HOST", REDIS_HOST(), async () =>
          TestNetwork.create({
            ...ports,
            bsky: { port: await freePort() },
            ozone: { port: await freePort() },
            dbPostgresUrl: pg.url,
            dbPostgresSchema: "bsky",
          }),
        )
      : TestNetworkNoAppView.create(ports),
  ).catch(async (e) => {
    await pg?.drop();
    throw e;
  });
  const pdsUrl = net.pds.url;
  const full = net instanceof TestNetwork ? net : undefined;
  return {
    pdsUrl,
    plcUrl: net.plc.url,
    // The PDS resolves its own handles; engagement is read from the AppView when there is one.
    env: { BLUESKY_PLC_URL: net.plc.url, BLUESKY_RESOLVER_URL: pdsUrl, BLUESKY_APPVIEW_URL: full?.bsky.url ?? pdsUrl },
    appView: full && { url: full.bsky.url, indexed: () => full.processAll() },
    async account(name) {
      const agent = new AtpAgent({ service: pdsUrl });
      const handle = `${name}-${randomBytes(3).toString("hex")}.test`;
      const password = `pw-${randomBytes(12).toString("hex")}`;
      const { data } = await agent.createAccount({ handle, email: `${handle}@example.test`, password });
      const app = await agent.com.atproto.server.createAppPassword({ name: "Contentio" });
      return { did: data.did, handle, password, appPassword: app.data.password, agent };
    },
    async records(did, collection = "app.bsky.feed.post") {
      // As JSON, the way they travel (blobs as { $link }), not as the client library's objects.
      const out: StoredRecord[] = [];
      let cursor = "";
      for (;;) {
        const q = new URLSearchParams({ repo: did, collection, limit: "100", ...(cursor && { cursor }) });
        const page = (await (await fetch(`${pdsUrl}/xrpc/com.atproto.repo.listRecords?${q}`)).json()) as { records: StoredRecord[]; cursor?: string };
        out.push(...page.records);
        if (!page.records.length || !page.cursor) return out;
        cursor = page.cursor;
      }
    },
    async oauthSessions(did) {
      const kysely = net.pds.ctx.accountManager.db.db;
      return (
        await kysely
          .selectFrom("token")
          .select("id")
          .where("did", "=", did as never)
          .execute()
      ).length;
    },
    movePds: (did, endpoint) => net.pds.ctx.plcClient.updatePds(did, net.pds.ctx.plcRotationKey, endpoint),
    proxy: (target = pdsUrl) => pdsProxy(target),
    async close() {
      await net.close();
      await pg?.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type BlueskyOwner = { u: TestUser; a: BlueskyAccount; accountId: string };

/** An owner of this service (publishing on) who connected a new account `{name}-….test` with its app password. */
export async function connectedOwner(net: Bluesky, name: string): Promise<BlueskyOwner> {
  const u = await makeUser({ publishing: true });
  const a = await net.account(name);
  const account = await connectWithPassword(await db(), u.id, ports().platforms, { network: "bluesky", handle: a.handle, password: a.appPassword });
  return { u, a, accountId: account.account_id };
}

/** This file's Bluesky network (started before its tests), configured as the service's. */
export function withBluesky(config: Record<string, string> = {}, opts: { appView?: boolean } = {}): { readonly net: Bluesky } {
  let net: Bluesky | undefined;
  let restore = () => {};
  beforeAll(async () => {
    net = await startBluesky(opts);
    restore = reconfigure({ ...net.env, ...config });
  }, 60_000);
  afterAll(async () => {
    restore();
    await net?.close();
  });
  return {
    get net() {
      return net!;
    },
  };
}

async function pdsProxy(target: string): Promise<PdsProxy> {
  const calls: string[] = [];
  const urls: string[] = [];
  // Per NSID: how many calls still go through before one whose answer is lost.
  const lose = new Map<string, number>();
  const answers = new Map<string, { status: number; body: unknown; headers: Record<string, string> }>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const nsid = new URL(req.url!, "http://proxy").pathname.replace(/^\/xrpc\//, "");
    calls.push(nsid);
    urls.push(req.url!);
    const canned = answers.get(nsid);
    if (canned) {
      answers.delete(nsid);
      return void res.writeHead(canned.status, { "content-type": "application/json", ...canned.headers }).end(JSON.stringify(canned.body));
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k))) as Record<
      string,
      string
    >;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await answer.arrayBuffer());
    const before = lose.get(nsid);
    if (before !== undefined) {
      if (before === 0) {
        lose.delete(nsid);
        return void req.socket.destroy();
      }
      lose.set(nsid, before - 1);
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"].includes(k)) out[k] = v;
    });
    res.writeHead(answer.status, out).end(body);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    urls,
    loseAnswer: (nsid, nth = 1) => void lose.set(nsid, nth - 1),
    answer: (nsid, status, body, headers = {}) => void answers.set(nsid, { status, body, headers }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * The owner on the PDS's own sign-in page (atproto OAuth), already open in `page`: signs in as
 * `a` with the account's own password (the handle comes filled in from the request's
 * login_hint) and authorizes the service.
 */
export async function signInOnPds(page: Page, a: BlueskyAccount) {
  await page.locator('input[type="password"]').fill(a.password);
  await page
    .getByRole("button", { name: /^(sign in|next)$/i })
    .first()
    .click();
  await page.getByRole("button", { name: "Authorize" }).click();
}
