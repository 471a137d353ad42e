import { z } from "zod";
import { originIsLoopback } from "@/lib/core/address-policy.mjs";
import { micros, X_PRICE_KEYS, X_PRICES, type XPrices } from "@/lib/domain/networks/x/pricing";

// Every environment variable the service reads, parsed once. docs/configuration.md's table mirrors this.
const Env = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: z.url().optional(),
    DATABASE_URL: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    REDIS_URL: z.string().min(1).optional(),
    RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
    OWNER_EMAIL: z.email().default("owner@example.com"),
    // Extra browser origins allowed to call the MCP server (comma-separated).
    MCP_ALLOWED_ORIGINS: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((o) => o.trim())
          .filter(Boolean),
      ),
    // How many reverse proxies stand in front of the service. 0 (the default): no
    // X-Forwarded-* header is believed anywhere, and a client's address is the connection's.
    // N: the address is the Nth entry from the right of X-Forwarded-For.
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    // How long `npm start` keeps an idle connection (server.mjs reads it): longer than any
    // reverse proxy in front keeps its own, or the proxy reuses closed ones (502s).
    KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(7200).default(65),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    // The owner's sign-in (next-auth). Without AUTH_SECRET one is kept in DATA_DIR/auth-secret.
    AUTH_SECRET: z.string().min(16).optional(),
    // E-mail sign-in links, only when set (smtp://user:pass@host:port).
    SMTP_URL: z.string().min(1).optional(),
    EMAIL_FROM: z.string().min(3).default("Contentio <no-reply@localhost>"),
    // Publishing (docs/interface.md, Publishing).
    SCHEDULE_MIN_LEAD_SECONDS: z.coerce.number().int().min(0).default(60),
    SCHEDULE_MAX_LATENESS_SECONDS: z.coerce.number().int().min(1).default(7200),
    SCHEDULER_POLL_MS: z.coerce.number().int().min(10).default(1000),
    // Platform calls the in-process scheduler makes at once (per process) when many are due.
    SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(200),
    // Of those, at most this many for one account (user and network): platforms rate-limit each account.
    SCHEDULER_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(25),
    // In-process scheduler: "auto" runs it unless Inngest is configured; "on" runs it anyway
    // (safe: the claim is atomic); "off" leaves publishing to Inngest or to nobody.
    SCHEDULER: z.enum(["auto", "on", "off"]).default("auto"),
    PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(100).default(20000),
    // How long a webhook receiver has to answer (a claimed delivery is leased for 3 times this).
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(10000),
    // A draft left in `publishing` this long (process killed mid-call) becomes `unknown`.
    PUBLISH_STUCK_SECONDS: z.coerce.number().int().min(1).default(300),
    LINKEDIN_API_URL: z.url().default("https://api.linkedin.com"),
    LINKEDIN_OAUTH_URL: z.url().default("https://www.linkedin.com"),
    // LinkedIn-Version (YYYYMM). Unset (the default): three months before today, computed at
    // each publish, so it never reaches LinkedIn's sunset. Set: an override, which LinkedIn
    // refuses (426) once retired; publishing then falls back to the computed one.
    LINKEDIN_VERSION: z
      .string()
      .regex(/^\d{6}$/)
      .optional(),
    // "on": sign-in with LinkedIn also asks to manage and post to the company pages the member
    // administers (Community Management API: LinkedIn refuses a sign-in that asks for scopes
    // the app was not granted, so it is off unless the app has that product).
    LINKEDIN_PAGES: z.enum(["on", "off"]).default("off"),
    // "on": sign-in with LinkedIn also asks for r_member_postAnalytics (Member Post Analytics,
    // a product the app must have, else LinkedIn refuses the sign-in), so the engagement of
    // the member's own posts can be read.
    LINKEDIN_ANALYTICS: z.enum(["on", "off"]).default("off"),
    // When a published post's engagement is read, after its publishing (lib/domain/metrics):
    // a list of durations (s, m, h, d).
    METRICS_AFTER: z
      .string()
      .regex(/^\s*\d+[smhd]\s*(,\s*\d+[smhd]\s*)*$/, "a comma-separated list of durations such as 1h,24h,7d")
      .default("1h,24h,7d,14d,21d,28d,35d"),
    // When a published post is read back to confirm it is still there (a receipt; LinkedIn can
    // drop a post in post-processing after accepting it), after its publishing: durations as
    // METRICS_AFTER's; "off": never.
    RECEIPTS_AFTER: z
      .string()
      .regex(/^(off|\s*\d+[smhd]\s*(,\s*\d+[smhd]\s*)*)$/, "a comma-separated list of durations such as 5m,1h, or off")
      .default("5m,1h"),
    // Post reads from X per owner and calendar month (X charges for each post read).
    METRICS_X_READS_PER_MONTH: z.coerce.number().int().min(0).max(1_000_000).default(300),
    // X's prices (pay per use), overriding the table of lib/domain/networks/x/pricing.ts when X
    // changes them: `post=0.015,url=0.20,read=0.005,owned=0.001` (dollars, any subset).
    X_PRICES: z
      .string()
      .regex(
        /^\s*(post|url|read|owned)\s*=\s*\d+(\.\d+)?\s*(,\s*(post|url|read|owned)\s*=\s*\d+(\.\d+)?\s*)*$/,
        "a list such as post=0.015,url=0.20,read=0.005,owned=0.001",
      )
      .optional(),
    // The X user id of the developer app's owner: that account's engagement is read through
    // owned reads (GET /2/users/{id}/tweets, $0.001 a post instead of $0.005).
    X_APP_OWNER_ID: z
      .string()
      .regex(/^\d{1,19}$/, "an X user id (digits)")
      .optional(),
    // Whether X takes this app's replies (a thread's parts, a first comment): since 2026-02-23
    // self-serve apps may reply only where summoned. `unknown` (the default) warns before
    // approval; `allowed` (an Enterprise app) does not; `refused` refuses them on the draft.
    X_REPLIES: z.enum(["unknown", "allowed", "refused"]).default("unknown"),
    X_API_URL: z.url().default("https://api.x.com"),
    // X's sign-in page (`/i/oauth2/authorize`); its token and user endpoints are on X_API_URL.
    X_OAUTH_URL: z.url().default("https://x.com"),
    // Bluesky needs no app credentials (an owner connects with a handle and an app password).
    // Where a handle's DID and a DID's PDS are found: the PLC directory, and the XRPC service
    // that resolves handles DNS and HTTPS do not (the public AppView, as the app does). The
    // AppView is where posts' engagement will be read.
    BLUESKY_PLC_URL: z.url().default("https://plc.directory"),
    BLUESKY_RESOLVER_URL: z.url().default("https://public.api.bsky.app"),
    BLUESKY_APPVIEW_URL: z.url().default("https://public.api.bsky.app"),
    // App credentials: with them (and a connected account) the real platform; else the sandbox.
    LINKEDIN_CLIENT_ID: z.string().min(1).optional(),
    LINKEDIN_CLIENT_SECRET: z.string().min(1).optional(),
    X_CLIENT_ID: z.string().min(1).optional(),
    X_CLIENT_SECRET: z.string().min(1).optional(),
    // Inngest as the publishing engine (instead of the in-process scheduler) when either is set.
    INNGEST_EVENT_KEY: z.string().min(1).optional(),
    INNGEST_SIGNING_KEY: z.string().min(1).optional(),
    // A self-hosted Inngest server's address (Inngest Cloud when unset).
    INNGEST_BASE_URL: z.url().optional(),
    // "1" for a dev server on its default address, or its URL (http://127.0.0.1:8288).
    INNGEST_DEV: z.string().min(1).optional(),
    // AI generation: with a key, any OpenAI-compatible chat-completions server; else offline.
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_BASE_URL: z.url().optional(),
    AI_MODEL: z.string().min(1).default("gpt-4o-mini"),
  })
  .superRefine((e, ctx) => {
    // Inngest signs each call it makes to /api/inngest: with an event key and no signing key
    // every one would fail, and nothing scheduled would ever be published, silently.
    if (e.INNGEST_EVENT_KEY && !e.INNGEST_SIGNING_KEY && !e.INNGEST_DEV) {
      ctx.addIssue({
        code: "custom",
        path: ["INNGEST_SIGNING_KEY"],
        message: "is needed with INNGEST_EVENT_KEY: Inngest signs its calls to /api/inngest, and without it nothing scheduled would be published",
      });
    }
    // Inngest's dev mode accepts unsigned calls to /api/inngest: on a reachable address anyone
    // could run its functions (publish any due draft, send webhooks) at will.
    if (e.INNGEST_DEV && e.APP_URL && !originIsLoopback(e.APP_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["INNGEST_DEV"],
        message:
          `is for a development machine only: Inngest's dev mode accepts unsigned calls to /api/inngest, ` +
          `so APP_URL must be a loopback address (localhost, 127.x.x.x, [::1]), not ${e.APP_URL}`,
      });
    }
  });

export type Config = z.infer<typeof Env> & {
  /** X's prices in micro-dollars: the table, with X_PRICES over it. */
  xPrices: XPrices;
  origin: string;
  baseUrl: string;
  mcpUrl: string;
  /** Inngest is the publishing engine (INNGEST_EVENT_KEY or INNGEST_DEV is set). */
  inngest: boolean;
};

let cached: Config | undefined;
let overrides: Record<string, string | undefined> = {};

/** The price table with X_PRICES' values over it (already checked by the schema). */
function xPricesOf(v: string | undefined): XPrices {
  const out = { ...X_PRICES };
  for (const pair of v ? v.split(",") : []) {
    const [k, d] = pair.split("=").map((s) => s.trim());
    out[X_PRICE_KEYS[k as keyof typeof X_PRICE_KEYS]] = micros(Number(d));
  }
  return out;
}

export function config(): Config {
  if (cached) return cached;
  const env = Object.fromEntries(Object.entries({ ...process.env, ...overrides }).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const origin = (parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, "");
  const inngest = Boolean(parsed.data.INNGEST_EVENT_KEY || parsed.data.INNGEST_DEV);
  cached = { ...parsed.data, xPrices: xPricesOf(parsed.data.X_PRICES), origin, baseUrl: `${origin}/api/v1`, mcpUrl: `${origin}/mcp`, inngest };
  return cached;
}

/**
 * Tests configure the service through this, never through process.env: the values are read as
 * if they were environment variables (undefined removes one), parsed and checked the same way,
 * and apply to this process only. Without an argument, the real environment returns.
 */
export function overrideConfig(vars: Record<string, string | undefined> = {}) {
  overrides = { ...vars };
  cached = undefined;
}
