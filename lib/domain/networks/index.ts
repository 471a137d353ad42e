import type { DraftType, NetworkName, NetworkSpec, PlatformName, Provider } from "./network";
import { linkedin } from "./linkedin";
import { x } from "./x";
import { bluesky } from "./bluesky";

// The networks, each defined once in its folder (./linkedin, ./x, ./bluesky) and named by its
// own name in the code; the API's words stay the specification's: `pronet` for the
// professional network (LinkedIn's posts) and `micro` for a microblog, whose `tweet` drafts go
// to X or to Bluesky, whichever account they name. Pure: the domain imports it, as the
// adapters do.

export type { DraftType, NetworkName, NetworkSpec, PlatformName, Provider };
export type Network = NetworkSpec;

/**
 * Every network, in the order pages list them. The first of a platform is the one its drafts
 * go to when they name no account and none is connected (the built-in sandbox stands in for it
 * without its app credentials).
 */
export const NETWORKS: readonly NetworkSpec[] = [linkedin, x, bluesky];

/** A network's name by draft type or by connection provider ("post", "linkedin", "bluesky": LinkedIn, LinkedIn, Bluesky). */
export const NETWORK_NAMES: Record<string, string> = Object.fromEntries([
  ...NETWORKS.map((n) => [n.provider, n.name]),
  ...NETWORKS.map((n) => [n.id, n.name]),
  ["post", linkedin.name],
  ["tweet", x.name],
]);

export { MAX_LINKEDIN_COMMENT_CHARS, MAX_LINKEDIN_IMAGES } from "./linkedin";
export { MAX_TWEET_IMAGES } from "./x";

const find = <K extends keyof NetworkSpec>(key: K, value: NetworkSpec[K]): NetworkSpec | undefined => NETWORKS.find((n) => n[key] === value);
/** A network by its name. */
export const networkNamed = (name: NetworkName) => find("id", name)!;
/** The network a platform's drafts go to when nothing names another (LinkedIn; X for a microblog). */
export const network = (platform: PlatformName) => find("platform", platform)!;
export const networkOfDraft = (type: DraftType) => find("draftType", type)!;
export const networkOfProvider = (provider: Provider) => find("provider", provider)!;
/** The network of a stored connection or account by its provider; undefined for a provider that is no network (a sign-in's). */
export const networkOfConnection = (c: { provider: string }): NetworkSpec | undefined => find("provider", c.provider as Provider);

/**
 * The network a draft of `platform` goes to: that of the connection it posts with, else the
 * platform's first network (which the sandbox stands in for without app credentials).
 */
export const networkFor = (platform: PlatformName, connection?: { provider: string } | null): NetworkSpec =>
  (connection && networkOfConnection(connection)) || network(platform);

/** The network a published post of `platform` is on, by the form of its id; the platform's first for any other (the sandbox's). */
export const networkOfPost = (platform: PlatformName, postId: string | null): NetworkSpec =>
  NETWORKS.find((n) => n.platform === platform && postId !== null && n.postId.test(postId)) ?? network(platform);

/** The networks a platform's drafts may go to, as a sentence names them: "LinkedIn", "X or Bluesky". */
export const platformNames = (platform: PlatformName) =>
  NETWORKS.filter((n) => n.platform === platform)
    .map((n) => n.name)
    .join(" or ");

/**
 * How far `text` is past the network's limit, as a sentence goes on after "it is": "361 / 280
 * characters as X counts them (81 too many)", else its text rule's own reason ("a Bluesky post
 * is at most 3000 bytes…"); null when the network takes it. What the owner's pages say before
 * Publish now.
 */
export function overLimit(net: NetworkSpec, text: string): string | null {
  const { count, max, unit, problem } = net.text;
  const why = problem(text);
  if (!why) return null;
  const n = count(text);
  return n > max ? `${n} / ${max} ${unit} (${n - max} too many)` : why.replace(/^./, (c) => c.toLowerCase());
}

/** The providers of the stored connections that publish (not a sign-in's own, such as e-mail). */
export const PROVIDERS: readonly Provider[] = NETWORKS.map((n) => n.provider);

/** The parts of a stored connection (auth_accounts) that decide whether it can publish. */
export type ConnectionFacts = { status: string; expires_at: number | null; refresh_token: string | null };

export type ConnectionState = {
  state: "connected" | "needs_reconnect" | "not_connected";
  /** When it stops being able to publish (an access token that cannot renew itself), or null. */
  until: Date | null;
};

/**
 * Whether a connection can publish, the one answer Settings, scheduling and publishing all
 * use: a token with a refresh token renews itself; one without stops at its expiry, and only
 * the owner signing in with the network again renews it.
 */
export function connectionState(acc: ConnectionFacts | null | undefined, now: Date): ConnectionState {
  if (!acc) return { state: "not_connected", until: null };
  const until = acc.refresh_token || acc.expires_at === null ? null : new Date(acc.expires_at * 1000);
  const usable = acc.status === "connected" && !(until && until.getTime() <= now.getTime());
  return { state: usable ? "connected" : "needs_reconnect", until };
}

/**
 * Why a connection cannot publish to the real network, as the owner's pages, an API error and
 * a failed draft's reason all say it, or null. (Without the network's app credentials the
 * sandbox stands in, and no connection is needed: callers ask only for a real network.)
 */
export function connectionProblemOf(net: NetworkSpec, acc: ConnectionFacts | null | undefined, now: Date): string | null {
  const { state } = connectionState(acc, now);
  if (state === "not_connected") return `No ${net.name} account is connected. The owner can connect one in Settings > Connections.`;
  if (state === "needs_reconnect") return `The ${net.name} connection needs renewing. The owner can reconnect it in Settings > Connections.`;
  return null;
}
