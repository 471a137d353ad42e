import { eq } from "drizzle-orm";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { consumeOAuthRequest } from "@/lib/adapters/ratelimit";
import { oauthClients } from "@/drizzle/schema";
import { clientNameProblem, pageUriProblem } from "./client-fields";
import { fetchDocument, FetchRefused } from "./fetch-document";
import { redirectUriProblem } from "../../domain/apps/redirect-uris";
import { originIsLoopback } from "@/lib/core/address-policy.mjs";

// Client ID Metadata Documents (MCP 2025-11-25 authorization; draft-ietf-oauth-client-id-
// metadata-document): a client_id that is an https URL names a JSON document, served there by
// the client, with its metadata. The document is fetched (bounded, public addresses only, at
// that very URL: no redirect), checked (its client_id is that URL; its redirect_uris are what
// authorize enforces) and kept in a row of oauth_clients keyed by the URL, so consent, codes
// and Settings > Connections keep referencing a uuid; the row is refreshed when its HTTP
// caching lifetime is over.

const MAX_BYTES = 5 * 1024;
const TIMEOUT_MS = 5000;
const DEFAULT_TTL_S = 3600;
const MAX_TTL_S = 24 * 3600;

export type ClientRow = typeof oauthClients.$inferSelect;
export type Resolved = { ok: true; client: ClientRow } | { ok: false; problem: string };

/** Whether a client_id names a metadata document: an https URL with a path, no fragment, no credentials. */
export function isMetadataDocumentUrl(id: string): boolean {
  if (!id.startsWith("https://") || id.length > 2000) return false;
  try {
    const u = new URL(id);
    // The URL parser removes dot segments: look at the path as written.
    const segments = id.slice("https://".length).split(/[?#]/)[0].split("/").slice(1);
    return u.pathname.length > 1 && !id.includes("#") && !u.username && !u.password && !segments.some((s) => s === "." || s === ".." || /^%2e/i.test(s));
  } catch {
    return false;
  }
}

/** The document's lifetime from its Cache-Control (or Expires) header, within bounds. */
export function cacheLifetimeSeconds(headers: Record<string, string | string[] | undefined>, now = Date.now()): number {
  const cc = String(headers["cache-control"] ?? "").toLowerCase();
  if (/\b(no-store|no-cache)\b/.test(cc)) return 0;
  const maxAge = /\bmax-age=(\d+)/.exec(cc)?.[1];
  let ttl = maxAge !== undefined ? Number(maxAge) : DEFAULT_TTL_S;
  if (maxAge === undefined && typeof headers.expires === "string") {
    const at = Date.parse(headers.expires);
    if (!Number.isNaN(at)) ttl = Math.floor((at - now) / 1000);
  }
  return Math.max(0, Math.min(ttl, MAX_TTL_S));
}

type Metadata = { client_name: string; redirect_uris: string[]; application_type?: string; client_uri?: string; logo_uri?: string };

/** The document's metadata, or why it cannot be used. */
function checkDocument(url: string, text: string): Metadata | string {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return "its metadata document is not JSON";
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return "its metadata document is not a JSON object";
  const m = doc as Record<string, unknown>;
  if (m.client_id !== url) return "its metadata document names another client_id";
  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 20) return "its metadata document must list 1 to 20 redirect_uris";
  for (const u of uris) if (redirectUriProblem(u)) return `its redirect URI ${String(u).slice(0, 100)} is not allowed`;
  const method = m.token_endpoint_auth_method ?? "none";
  if (method !== "none") return "only public clients (token_endpoint_auth_method none) may use a metadata document";
  if ("client_secret" in m || "client_secret_expires_at" in m) return "a metadata document must not carry a client secret";
  if (m.application_type !== undefined && m.application_type !== "web" && m.application_type !== "native") return "application_type must be web or native";
  const nameProblem = typeof m.client_name === "string" ? clientNameProblem(m.client_name) : null;
  if (nameProblem) return `its ${nameProblem}`;
  const name = typeof m.client_name === "string" && m.client_name.trim() ? m.client_name.trim().slice(0, 200).toWellFormed() : new URL(url).host;
  return {
    client_name: name,
    redirect_uris: uris as string[],
    ...(typeof m.application_type === "string" && { application_type: m.application_type }),
    // Kept only when usable, as before: a document is not refused for its page or logo.
    ...(!pageUriProblem("client_uri", m.client_uri) && { client_uri: m.client_uri as string }),
    ...(!pageUriProblem("logo_uri", m.logo_uri) && { logo_uri: m.logo_uri as string }),
  };
}

/**
 * Why an answer other than 200 is refused. A redirect is never followed
 * (draft-ietf-oauth-client-id-metadata-document-01, section 4: only a 200 is a document, and
 * redirects are not followed automatically): the consent page names the client_id's host as
 * the one vouching for the app, and an open redirector on a reputable site would otherwise
 * lend it that name for a document served anywhere.
 */
function statusProblem(status: number): string {
  if (status >= 300 && status < 400)
    return `its address redirects elsewhere (HTTP ${status}), and a metadata document must be served at the client_id URL itself`;
  return `it answered HTTP ${status}`;
}

/** A service on a loopback address (development, tests) may use clients on loopback too. */
const serviceOnLoopback = () => originIsLoopback(config().origin);

export async function findMetadataClient(url: string): Promise<ClientRow | undefined> {
  const [row] = await (await db()).select().from(oauthClients).where(eq(oauthClients.metadataUrl, url));
  return row;
}

/** The client a metadata-document client_id names: the stored row while fresh, else fetched again. */
export async function resolveMetadataClient(url: string, address: string, now = new Date()): Promise<Resolved> {
  const known = await findMetadataClient(url);
  if (known?.metadataExpiresAt && known.metadataExpiresAt > now) return { ok: true, client: known };
  // Anyone, signed in or not, can make this server fetch a document (and keep a client row)
  // by naming its address as client_id: fetches are counted per network address, like
  // registrations.
  const rate = await consumeOAuthRequest("metadata", address);
  if (!rate.allowed) {
    return {
      ok: false,
      problem: `Too many apps' documents were fetched for your network address in the last minute; wait ${rate.retryAfter} seconds and try again.`,
    };
  }
  let fetched;
  try {
    fetched = await fetchDocument(url, { maxBytes: MAX_BYTES, timeoutMs: TIMEOUT_MS, allowLoopback: serviceOnLoopback() });
  } catch (e) {
    const why = e instanceof FetchRefused ? e.message : "it could not be reached";
    return { ok: false, problem: `This app's metadata document could not be used: ${why}.` };
  }
  if (fetched.status !== 200) return { ok: false, problem: `This app's metadata document could not be used: ${statusProblem(fetched.status)}.` };
  const checked = checkDocument(url, fetched.body);
  if (typeof checked === "string") return { ok: false, problem: `This app's metadata document could not be used: ${checked}.` };
  const expires = new Date(now.getTime() + cacheLifetimeSeconds(fetched.headers, now.getTime()) * 1000);
  const values = {
    name: checked.client_name,
    redirectUris: checked.redirect_uris,
    tokenEndpointAuthMethod: "none",
    secretHash: null,
    selfRegistered: true,
    metadata: { client_id: url, ...checked },
    metadataUrl: url,
    metadataExpiresAt: expires,
  };
  const [client] = await (await db()).insert(oauthClients).values(values).onConflictDoUpdate({ target: oauthClients.metadataUrl, set: values }).returning();
  return { ok: true, client };
}
