// The two networks, named one way everywhere: the API's platform (pronet, micro), the draft
// type that goes there (post, tweet), next-auth's provider id of its connection (linkedin,
// twitter) and the name people read (LinkedIn, X); and the limits of theirs that both the
// adapters and the domain's drafts keep. Pure: the domain imports it, as the adapters do.

export type PlatformName = "pronet" | "micro";
export type DraftType = "post" | "tweet";
export type Provider = "linkedin" | "twitter";
export type Network = { platform: PlatformName; draftType: DraftType; provider: Provider; name: string };

export const NETWORKS: readonly Network[] = [
  { platform: "pronet", draftType: "post", provider: "linkedin", name: "LinkedIn" },
  { platform: "micro", draftType: "tweet", provider: "twitter", name: "X" },
];

/** A network's name by draft type or by connection provider ("post", "linkedin": LinkedIn). */
export const NETWORK_NAMES: Record<string, string> = Object.fromEntries(
  NETWORKS.flatMap((n) => [
    [n.draftType, n.name],
    [n.provider, n.name],
  ]),
);

/** LinkedIn's multi-image post: 2 to 20 images. */
export const MAX_LINKEDIN_IMAGES = 20;
/** X: a tweet carries up to 4 images, or one animated GIF. */
export const MAX_TWEET_IMAGES = 4;
/** LinkedIn's comment box takes 1,250 characters (docs/platforms.md); an X reply is a tweet. */
export const MAX_LINKEDIN_COMMENT_CHARS = 1250;

const find = <K extends keyof Network>(key: K, value: Network[K]): Network => NETWORKS.find((n) => n[key] === value)!;
export const network = (platform: PlatformName) => find("platform", platform);
export const networkOfDraft = (type: DraftType) => find("draftType", type);
export const networkOfProvider = (provider: Provider) => find("provider", provider);

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
export function connectionProblemOf(platform: PlatformName, acc: ConnectionFacts | null | undefined, now: Date): string | null {
  const { state } = connectionState(acc, now);
  const n = network(platform).name;
  if (state === "not_connected") return `No ${n} account is connected. The owner can connect one in Settings > Connections.`;
  if (state === "needs_reconnect") return `The ${n} connection needs renewing. The owner can reconnect it in Settings > Connections.`;
  return null;
}
