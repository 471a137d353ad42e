import { networkNamed } from "@/lib/domain/networks";
import type { Endpoint, NetworkName, Need } from "./network";
import { X_ENDPOINTS } from "./x/endpoints";
import { LINKEDIN_ENDPOINTS } from "./linkedin/endpoints";
import { BLUESKY_ENDPOINTS } from "./bluesky/endpoints";

// Every endpoint the adapters call, with the OAuth scopes it needs (each network's table is in
// its folder): what the sign-in request, the connection check, publishing and the tests read.
// Pure functions of the tables and a stored grant, so the domain checks a connection's
// permissions without reaching an adapter.

export type { Endpoint, Need };

export const ENDPOINTS = { x: X_ENDPOINTS, linkedin: LINKEDIN_ENDPOINTS, bluesky: BLUESKY_ENDPOINTS } as const satisfies Record<
  NetworkName,
  Record<string, Endpoint>
>;

/** Asked for at sign-in beyond what the endpoints name (X's `offline.access`: a refresh token). */
const signInExtra = (p: NetworkName): readonly string[] => {
  const s = networkNamed(p).signIn;
  return s.kind === "oauth" ? s.extraScopes : [];
};

const union = (lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];
const endpointsOf = (p: NetworkName): Endpoint[] => Object.values(ENDPOINTS[p]);

/**
 * The scopes the sign-in with a network asks for: every endpoint's, checks first; company
 * pages' only with `pages`, LinkedIn's member analytics only with `analytics`.
 */
export function signInScopes(p: NetworkName, opts: { pages?: boolean; analytics?: boolean } = {}): string[] {
  const order: Need[] = ["check", "text", "media", "metrics", "pages", "analytics"];
  const sorted = endpointsOf(p)
    .filter((e) => (opts.pages || e.for !== "pages") && (opts.analytics || e.for !== "analytics"))
    .sort((a, b) => order.indexOf(a.for) - order.indexOf(b.for));
  return union([...sorted.map((e) => e.scopes), signInExtra(p)]);
}

/** The scopes publishing `needs` calls for (media implies text: a post is sent with it). */
export function scopesFor(p: NetworkName, needs: Need[]): string[] {
  return union(
    endpointsOf(p)
      .filter((e) => needs.includes(e.for))
      .map((e) => e.scopes),
  );
}

/**
 * The scopes a token response granted, as stored (`scope`): X separates them with spaces,
 * LinkedIn with commas. Null when the network said nothing: then nothing can be known.
 */
export function grantedScopes(scope: string | null | undefined): Set<string> | null {
  if (!scope?.trim()) return null;
  return new Set(scope.split(/[\s,]+/).filter(Boolean));
}

/** Which of the scopes `needs` calls for the stored grant lacks ([] when unknown or none). */
export function missingScopes(p: NetworkName, scope: string | null | undefined, needs: Need[]): string[] {
  const granted = grantedScopes(scope);
  return granted ? scopesFor(p, needs).filter((s) => !granted.has(s)) : [];
}

/** What a draft's content calls for: text, and media when it has images or a document. */
export const needsOf = (hasMedia: boolean): Need[] => (hasMedia ? ["text", "media"] : ["text"]);

/**
 * Why a connection granted `scope` cannot post content that `needs` this, or null. Said the
 * same way on the owner's pages, in an API error and in a failed draft's reason.
 */
export function scopeProblem(p: NetworkName, scope: string | null | undefined, needs: Need[]): string | null {
  const missing = missingScopes(p, scope, needs);
  if (!missing.length) return null;
  const { name } = networkNamed(p);
  const what = missingScopes(p, scope, ["text"]).length ? "post" : "post images or documents";
  return (
    `The ${name} connection was made without the permission to ${what} ` +
    `(${missing.join(", ")}); the owner must reconnect ${name} in Settings > Connections.`
  );
}
