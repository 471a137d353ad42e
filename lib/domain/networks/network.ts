// What a network is, as one file per network (linkedin/, x/, bluesky/) defines it for both the
// domain and the network's adapter. Adding a network is a folder with its definition, its entry
// in NETWORKS (index.ts) and its adapter; nothing else names the networks one by one.

/** A network by its own name: how the code, the adapters and the logs name it. */
export type NetworkName = "linkedin" | "x" | "bluesky";
/** The API's word for the kind of network a draft is written for (the specification's wire value). */
export type PlatformName = "pronet" | "micro";
/** The kind of draft written for it: a professional network's post, a microblog's tweet. */
export type DraftType = "post" | "tweet";
/** How a stored connection (auth_accounts.provider) names its network: next-auth's provider ids, and "bluesky". */
export type Provider = "linkedin" | "twitter" | "bluesky";

/** The limit on a text, and what is wrong with one that breaks it, in the network's own words. */
export type TextRule = {
  /** The most a text may count. */
  max: number;
  /** How the network counts, after a number: "characters as X counts them". */
  unit: string;
  /** What a writer must know of that counting, in a few words (the writing model is told it): "every link counts 23, …". */
  counting?: string;
  /** How much `text` counts, the network's way (what `max` limits). */
  count: (text: string) => number;
  /** Why `text` does not fit, as a sentence ("A tweet is at most 280 characters as X counts them (…); this one is 281"), or null. */
  problem: (text: string) => string | null;
};

/** How a network is signed in to: OAuth with the deployment's app credentials, or the owner's app password (Bluesky). */
export type SignIn = { kind: "oauth"; vars: readonly [string, string]; extraScopes: readonly string[] } | { kind: "app_password" };

export type NetworkSpec = {
  id: NetworkName;
  /** The name people read: LinkedIn, X, Bluesky. */
  name: string;
  /** What one of its posts is called, as the owner's pages say it: "tweet" on X, else "post". */
  postNoun: string;
  platform: PlatformName;
  draftType: DraftType;
  provider: Provider;
  text: TextRule;
  /** The first comment (LinkedIn: a comment; X and Bluesky: a reply, a post like any other). */
  comment: TextRule;
  images: {
    /** At most this many images a post (a thread: each part). */
    max: number;
    /** The largest image file it takes, in bytes; larger ones are encoded again to fit (null: no limit of its own). */
    maxBytes: number | null;
  };
  signIn: SignIn;
  /**
   * The form of the id publishing stores for a post on it (X: a number; LinkedIn: a URN;
   * Bluesky: an at:// URI), so a published post still names its network once its account is
   * disconnected (the draft then names none).
   */
  postId: RegExp;
};

/**
 * What a request is for: posting text, attaching media, checking the connection, a company
 * page's (listing, posting as it), or reading posts' engagement (`metrics`; LinkedIn's member
 * analytics is a product of its own, `analytics`).
 */
export type Need = "text" | "media" | "check" | "pages" | "metrics" | "analytics";

/** One endpoint an adapter calls, with the OAuth scopes it needs (none: a session that may do everything). */
export type Endpoint = { method: "GET" | "POST" | "PUT"; path: string; scopes: readonly string[]; for: Need };
