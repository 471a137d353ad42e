import { Resolver } from "node:dns/promises";
import { config } from "@/lib/core/config";
import { checkedRequester } from "@/lib/adapters/webhooks/checked-request";
import { PublishError } from "@/lib/domain/networks/platform";
import { request } from "../request";
import { xrpc } from "./xrpc";

// Who a handle is (atproto.com/specs/handle, /specs/did): handle -> DID -> DID document, which
// names the account's PDS and, in alsoKnownAs, its handle back (a handle that its DID does not
// name is not the account's). A handle resolves through DNS (a TXT record `_atproto.{handle}`:
// `did=...`) or HTTPS (`https://{handle}/.well-known/atproto-did`), tried first as the
// specification says, then through BLUESKY_RESOLVER_URL's com.atproto.identity.resolveHandle
// (the public AppView, as Bluesky's app does). A did:plc document comes from BLUESKY_PLC_URL, a
// did:web one from its host. What an outsider's domain answers is read through the checked
// request (no private addresses, a small answer, a short time).

export type Identity = { did: string; handle: string; pds: string };

/** Why an identity could not be found, in the owner's words (connecting) or a reason (publishing). */
export class IdentityError extends Error {
  override name = "IdentityError";
}

const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DID = /^did:(plc:[a-z2-7]{24}|web:[a-z0-9.-]+)$/;
// Reserved names (RFC 2606, 6761, 6762, 7686): never on the internet's DNS, so only a resolver
// can know them (the tests' PDS answers for `.test`).
const RESERVED = /\.(test|example|invalid|local|localhost|internal|arpa|onion|alt)$/;
const TIMEOUT_MS = 3000;

/** A handle as Bluesky spells it (lower case, no `@`), or null when it is not one. */
export function normalHandle(raw: string): string | null {
  const h = raw.trim().replace(/^@/, "").toLowerCase();
  return h.length <= 253 && HANDLE.test(h) ? h : null;
}

const base = (url: string) => url.replace(/\/+$/, "");

let resolver: Resolver | undefined;
async function viaDns(handle: string): Promise<string | null> {
  resolver ??= new Resolver({ timeout: TIMEOUT_MS, tries: 1 });
  const records = await resolver.resolveTxt(`_atproto.${handle}`).catch(() => []);
  const dids = [...new Set(records.map((r) => r.join("")).filter((t) => t.startsWith("did=")))].map((t) => t.slice(4));
  return dids.length === 1 && DID.test(dids[0]) ? dids[0] : null;
}

async function viaHttps(handle: string): Promise<string | null> {
  const a = await checkedRequester()({ url: `https://${handle}/.well-known/atproto-did`, method: "GET", headers: {}, timeoutMs: TIMEOUT_MS, maxBytes: 2048 });
  const did = a.status === 200 ? a.body.toString("utf8").trim() : "";
  return DID.test(did) ? did : null;
}

async function viaResolver(handle: string): Promise<string | null> {
  const res = await xrpc(base(config().BLUESKY_RESOLVER_URL), "com.atproto.identity.resolveHandle", { params: { handle } });
  const did = res.ok ? ((await res.json().catch(() => null)) as { did?: unknown } | null)?.did : null;
  return typeof did === "string" && DID.test(did) ? did : null;
}

/**
 * The DID of a handle, or null when nobody answers for it. `direct`: DNS and HTTPS first (the
 * owner's own handle, when connecting); a mention in a post asks the resolver only, as
 * Bluesky's app does.
 */
export async function resolveHandle(handle: string, direct = true): Promise<string | null> {
  if (direct && !RESERVED.test(handle)) {
    const [dns, https] = await Promise.all([viaDns(handle), viaHttps(handle)]);
    if (dns && https && dns !== https) return null; // two answers that disagree: neither is trusted
    if (dns || https) return dns ?? https;
  }
  return viaResolver(handle).catch((e) => {
    if (e instanceof PublishError) throw new IdentityError(`The handle could not be looked up: ${e.message}`);
    throw e;
  });
}

type DidDocument = { id?: unknown; alsoKnownAs?: unknown; service?: unknown };

async function document(did: string): Promise<DidDocument | null> {
  if (did.startsWith("did:plc:")) {
    const res = await request(`${base(config().BLUESKY_PLC_URL)}/${did}`, { method: "GET", headers: { accept: "application/json" } }, TIMEOUT_MS);
    return res.ok ? ((await res.json().catch(() => null)) as DidDocument | null) : null;
  }
  const host = did.slice("did:web:".length);
  const a = await checkedRequester()({ url: `https://${host}/.well-known/did.json`, method: "GET", headers: {}, timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024 });
  return a.status === 200 ? (JSON.parse(a.body.toString("utf8")) as DidDocument) : null;
}

/** The account's PDS and handle as its DID document states them; `handle` must be among its names. */
export async function resolveDid(did: string, handle?: string): Promise<Identity> {
  const doc = await document(did).catch(() => null);
  if (!doc || doc.id !== did)
    throw new IdentityError(`The identity ${did} could not be read (${did.startsWith("did:plc:") ? "the PLC directory" : "its host"} gave no document).`);
  const names = (Array.isArray(doc.alsoKnownAs) ? doc.alsoKnownAs : [])
    .filter((n): n is string => typeof n === "string" && n.startsWith("at://"))
    .map((n) => n.slice(5).toLowerCase());
  const named = handle ? names.find((n) => n === handle) : names[0];
  if (!named) throw new IdentityError(handle ? `${did} does not name @${handle} as its handle, so the handle is not verified.` : `${did} names no handle.`);
  const service = (Array.isArray(doc.service) ? doc.service : []).find(
    (s: { id?: unknown; type?: unknown }) => (s.id === "#atproto_pds" || s.id === `${did}#atproto_pds`) && s.type === "AtprotoPersonalDataServer",
  ) as { serviceEndpoint?: unknown } | undefined;
  const pds = typeof service?.serviceEndpoint === "string" && URL.canParse(service.serviceEndpoint) ? base(service.serviceEndpoint) : null;
  if (!pds) throw new IdentityError(`${did} names no PDS (personal data server).`);
  return { did, handle: named, pds };
}

/** handle -> DID -> PDS, the handle checked against the DID's document. */
export async function resolveIdentity(handle: string): Promise<Identity> {
  const did = await resolveHandle(handle);
  if (!did) throw new IdentityError(`No Bluesky account answers to @${handle}.`);
  return resolveDid(did, handle);
}
