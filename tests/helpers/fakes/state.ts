import type http from "node:http";
import type { Rendered } from "./little-text";

// What the fake LinkedIn and X keep and how tests steer them (fake-platforms.ts serves them).

export type Misbehaviour =
  | "ok"
  | "429"
  | "429daily"
  | "500"
  | "timeout"
  | "reset"
  | "duplicate"
  | "401"
  | "refuse"
  | "echo"
  | "echo500"
  | "emoji400"
  | "oddid"
  | "created502"
  | "processing_failed";
export type Route = "linkedin" | "x";
/** Posts/tweets ("linkedin", "x"; X's replies too), LinkedIn comments and media uploads (initializeUpload, X's uploads). */
export type Queue = Route | "linkedin-comment" | "linkedin-upload" | "x-upload" | "linkedin-read" | "x-read";

export type Upload = {
  id: string;
  owner: string;
  kind: "image" | "document" | "media";
  bytes: Buffer | null;
  contentType: string | null;
  altText?: string;
  /** X: the upload's category; LinkedIn: unused. */
  category?: string;
  /** Processing after upload (X's GIFs, LinkedIn's documents and images), as the network reports it. */
  state: "waiting" | "processing" | "ready" | "failed";
  /** Status reads left before processing ends. */
  pollsLeft: number;
  /** X's chunked upload: the segments received, by index. */
  segments?: Map<number, Buffer>;
  totalBytes?: number;
  /** X: this upload's processing will fail (a test asked for it). */
  failProcessing?: boolean;
};
export type Created = { id: string; text: string; body: Record<string, unknown>; rendered?: Rendered; owner?: string; at?: number };

/** A post's engagement as the network reports it (a test sets it; zero until then). */
export type Counts = { impressions: number; likes: number; replies: number; reposts: number; quotes?: number; clicks: number };

/** A person who signs in with a network through the fake's authorize page. */
export type Person = { sub: string; name: string; email?: string; username?: string };

/** One network's sign-in (OAuth 2.0 / OpenID Connect) as the fake saw it. */
export type SignIn = {
  /** Who signs in next. */
  person: Person;
  /** Each authorize request's query, as the browser sent it. */
  authorizations: URLSearchParams[];
  /** Each token request (code or refresh): its form and whether it carried client authentication. */
  tokenRequests: { form: URLSearchParams; authorization?: string }[];
  /** Refused sign-in requests (must stay empty). */
  errors: string[];
  /** Scopes the network leaves out of what it grants (an app not allowed them, or an older grant). */
  withheld: string[];
  /** Whether token responses carry a refresh token (LinkedIn: only for approved partner apps). */
  issueRefreshToken: boolean;
  /** Tokens handed out so far, newest last. */
  issued: { access_token: string; refresh_token?: string; scope: string }[];
  /** Tokens revoked through the network's revocation endpoint (RFC 7009), with the type hint sent. */
  revoked: { token: string; hint: string | null }[];
};

/** A token the fake accepts: its scopes and, where known, the member or user it acts for. */
export type Grant = { scopes: Set<string>; member?: string };

export type FakeState = {
  /** What each platform created, as a reader sees it (LinkedIn: the rendered little text). */
  posts: Record<Route, string[]>;
  /** Each created post/tweet in order, with its id and request body. */
  created: Record<Route, Created[]>;
  /** LinkedIn company pages: each organization's number, name, vanity name and the members who administer it. */
  organizations: { id: string; name: string; vanity: string; admins: string[] }[];
  /** LinkedIn comments created (Social Actions), in order: on which post, as whom, the text. */
  comments: { id: string; object: string; actor: string; text: string }[];
  /** LinkedIn image/document URNs and X media ids, with the bytes received. */
  uploads: Map<string, Upload>;
  refreshes: Record<Route, number>;
  /** Requests outside the published contract, and the fake's own answers outside it (must stay empty). */
  badRequests: string[];
  /** Requests the network refused as documented (a token without a needed scope). */
  refusals: string[];
  /** Every post/tweet request as received (headers and parsed body), to check its exact shape. */
  requests: { route: Route; headers: http.IncomingHttpHeaders; body: unknown }[];
  /** Every media request (uploads, status reads, metadata), in order. */
  mediaRequests: { path: string; method: string; headers: http.IncomingHttpHeaders }[];
  /**
   * Per platform: valid access tokens with their grants; the current refresh token of
   * connections a test made itself (`refresh`, granting `refreshGrant`); and refresh tokens the
   * sign-in handed out, each with its grant. A refresh token stops working once used (rotation).
   */
  tokens: Record<Route, { access: Map<string, Grant>; refresh: string; refreshGrant: Grant; refreshGrants: Map<string, Grant> }>;
  signIn: Record<Route, SignIn>;
  /** Status reads an X GIF / a LinkedIn document answers "processing" before it is ready. */
  processingPolls: { x: number; linkedin: number };
  /** X's daily cap on posts per user: what X reports as remaining. */
  xDailyRemaining: number;
  /** Posts a user may create in 15 minutes (X's window on POST /2/tweets: 100). */
  xPostsPer15Min: number;
  /**
   * X's rules for self-serve (pay-per-use) apps (fakes/x.ts): a reply only where the original
   * post's author summoned the replying account, at most one cashtag a post. Off: Enterprise.
   */
  xSelfServe: boolean;
  /** The developer account's credits on X, in micro-dollars (null: never runs out); X answers 402 once they are spent. */
  xCredits: number | null;
  /** Each post's engagement, by its id (X) or URN (LinkedIn). */
  engagement: Map<string, Counts>;
  /** Every engagement read as received: the network and the post ids it named. */
  reads: { route: Route; ids: string[]; owned?: boolean }[];
  /** Posts the network accepted and later took down (a test dropped them): reading one back finds nothing. */
  dropped: Set<string>;
  /** Every read of one post back (a receipt), as received. */
  receiptReads: { route: Route; id: string }[];
};

export const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
};

export const bearer = (req: http.IncomingMessage) => (req.headers.authorization ?? "").replace(/^Bearer /, "");

export const parseOrNull = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};
export const keys = (o: unknown) => (o && typeof o === "object" ? Object.keys(o).sort().join(",") : "");
export const subsetOf = (o: unknown, allowed: string[]) => !!o && typeof o === "object" && Object.keys(o).every((k) => allowed.includes(k));

/** The image format by magic number, as a network sniffs an upload. */
export function sniff(b: Buffer): string {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (b.subarray(0, 4).toString("latin1") === "GIF8") return "gif";
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  if (b.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  return "unknown";
}
