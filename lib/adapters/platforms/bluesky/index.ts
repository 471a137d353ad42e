import type { Db } from "@/lib/adapters/db";
import { bluesky as spec, MAX_BLUESKY_IMAGES } from "@/lib/domain/networks/bluesky";
import { PublishError, type CommentRequest, type Platform, type Probe, type Published, type PublishRequest } from "@/lib/domain/networks/platform";
import { authorized, markNeedsReconnect, setNotice, type Account } from "../tokens";
import { errorText } from "../http";
import { postParts, type Progress } from "../parts";
import { cardEmbed, imagesEmbed, type Embed } from "./media";
import { facetsOf, firstLink, type Facet } from "./facets";
import { blueskyMetrics } from "./metrics";
import { refresher } from "./session";
import { nextTid, rkeyOf, tid } from "./tid";
import { NET, refusal, staleToken, xrpc, xrpcError, type Signed } from "./xrpc";
import { oauthCall } from "./oauth";

// Bluesky (the AT Protocol) as the account's own PDS serves it, with the session atproto OAuth
// (oauth.ts) or an app password (session.ts) made. A post is an app.bsky.feed.post record made with
// com.atproto.repo.createRecord under a record key this service chooses and stores first
// (parts.ts), so that a send repeated after an unknown outcome names the same record: the PDS
// holds at most one, and the one it holds is read back instead of posting again. A thread's
// parts and a first comment reply with strong references (uri + cid) to the thread's first
// post (root) and the post before (parent). docs/platforms.md, "Bluesky".

const POST = "app.bsky.feed.post";

/** A strong reference: a record's at:// URI and the CID of the version meant. */
type Ref = { uri: string; cid: string };
type StoredPost = Ref & { value: { text?: unknown; reply?: { root?: Ref; parent?: Ref } } };
type PostRecord = {
  $type: typeof POST;
  text: string;
  createdAt: string;
  facets?: Facet[];
  reply?: { root: Ref; parent: Ref };
  embed?: Embed;
};

/**
 * The account's PDS, and calls made as the account: through its atproto OAuth session (DPoP,
 * renewed by the OAuth client: oauth.ts), or with an app password's session, renewed once when
 * the PDS refuses it as expired (one renewal at a time per account: tokens.ts).
 */
export function session(acc: Account, db: Db): { pds: string; call: Signed } {
  const pds = acc.serviceUrl;
  if (!pds) throw new PublishError("failed", `The ${NET} connection names no server; the owner must connect ${NET} again in Settings > Connections.`);
  if (acc.type === "oauth") return { pds, call: oauthCall(acc, db) };
  const auth = authorized(db, acc, () => refresher(pds), NET, staleToken);
  return { pds, call: (nsid, c = {}) => auth((token) => xrpc(pds, nsid, { ...c, token, guarded: true })) };
}

const isRef = (r: unknown): r is Ref => !!r && typeof (r as Ref).uri === "string" && typeof (r as Ref).cid === "string";

export function bluesky(acc: Account, db: Db): Platform {
  const did = acc.providerAccountId;
  // A DID never changes; a handle may, and a link with it would break.
  const link = (uri: string) => `https://bsky.app/profile/${did}/post/${rkeyOf(uri)}`;
  const published = (r: Ref): Published => ({ postId: r.uri, url: link(r.uri) });

  /** The account's post under `rkey`, as its PDS holds it, or null when there is none. */
  async function read(pds: string, rkey: string): Promise<StoredPost | null> {
    const res = await xrpc(pds, "com.atproto.repo.getRecord", { params: { repo: did, collection: POST, rkey }, guarded: true });
    if (res.ok) {
      const r = (await res.json().catch(() => null)) as StoredPost | null;
      if (isRef(r)) return r;
    } else if ((await xrpcError(res)).error === "RecordNotFound") return null;
    throw new PublishError("retry", `${NET} could not say whether the post is there (${res.status}: ${await errorText(res)}); nothing new was sent.`);
  }

  /** The post under `rkey` when an earlier send created it: this one, when it says what this one says; else a refusal naming it. */
  async function already(pds: string, rkey: string, record: PostRecord): Promise<Ref | null> {
    const held = await read(pds, rkey);
    if (!held) return null;
    if (held.value.text === record.text) return { uri: held.uri, cid: held.cid };
    throw new PublishError(
      "failed",
      `An earlier attempt of this draft created a different ${NET} post under its key (${link(held.uri)}); nothing new was posted. ` +
        `Delete that post on ${NET} to publish this one.`,
    );
  }

  /**
   * Creates the post under `rkey` (stored before this call). Sent under a key an earlier
   * attempt stored, what the PDS holds there is read first; a refusal is read back too (a PDS
   * answers a key it holds with an error, 500 in the version tested), so a post that went out
   * is found instead of failing or being sent again.
   */
  async function create(pds: string, call: Signed, rkey: string, resumed: boolean, record: PostRecord): Promise<Ref> {
    if (resumed) {
      const found = await already(pds, rkey, record);
      if (found) return found;
    }
    const res = await call("com.atproto.repo.createRecord", { json: { repo: did, collection: POST, rkey, record } });
    if (res.ok) {
      const r = await res.json().catch(() => null);
      if (isRef(r) && rkeyOf(r.uri) === rkey) return { uri: r.uri, cid: r.cid };
      throw new PublishError("unknown", `${NET} accepted the post but returned no usable reference; check the ${NET} account.`);
    }
    if (res.status !== 429) {
      const found = await already(pds, rkey, record);
      if (found) return found;
    }
    const { error } = await xrpcError(res);
    // The account itself cannot post (deactivated, taken down): the owner must act on Bluesky.
    if (/^Account(Deactivated|Takedown|Suspended)$/.test(error)) {
      await setNotice(db, acc, `${NET} refused a post: the account is ${error.slice(7).toLowerCase()}.`);
      if (error !== "AccountDeactivated") await markNeedsReconnect(db, acc);
    }
    throw await refusal(res, "post");
  }

  /** A reply's references: to the thread's first post (root) and to `parentUri`, its CIDs read when not known. */
  async function replyTo(pds: string, parentUri: string, known: Map<string, Ref>): Promise<{ root: Ref; parent: Ref }> {
    const parent: Ref | StoredPost | null = known.get(parentUri) ?? (await read(pds, rkeyOf(parentUri)));
    if (!parent) throw new PublishError("failed", `The ${NET} post this replies to (${link(parentUri)}) is gone; nothing was posted.`);
    const stored = (parent as Partial<StoredPost>).value?.reply?.root;
    const root = isRef(stored) ? stored : { uri: parent.uri, cid: parent.cid };
    return { root, parent: { uri: parent.uri, cid: parent.cid } };
  }

  const record = (text: string, facets: Facet[] | undefined, embed: Embed | undefined, reply: PostRecord["reply"] | undefined): PostRecord => ({
    $type: POST,
    text,
    createdAt: new Date().toISOString(),
    ...(facets && { facets }),
    ...(reply && { reply }),
    ...(embed && { embed }),
  });

  return {
    name: "micro",
    kind: "bluesky",
    async publish(req: PublishRequest) {
      const { pds, call } = session(acc, db);
      const known = new Map<string, Ref>();
      let root: Ref | undefined;
      return postParts(req, async (k, replyToId, progress: Progress) => {
        const part = req.parts[k];
        const text = part.text.normalize("NFC");
        const problem = spec.text.problem(text);
        if (problem) throw new PublishError("failed", `${problem}.`);
        if (part.media.length > MAX_BLUESKY_IMAGES)
          throw new PublishError("failed", `A ${NET} post carries at most ${MAX_BLUESKY_IMAGES} images (this one has ${part.media.length}).`);
        const resumed = !!progress.keys[k];
        const rkey = await progress.key(k, () => tid());
        const facets = await facetsOf(text);
        // Images, else a card for the first link (a post carries one embed).
        const embed = part.media.length ? await imagesEmbed(call, part.media, progress, req.now) : await cardEmbed(call, firstLink(facets));
        const reply = replyToId ? await replyTo(pds, replyToId, known) : undefined;
        // The thread's first post: this attempt's part 0, else what the first reply found.
        if (reply) root ??= reply.root;
        const r = await create(pds, call, rkey, resumed, record(text, facets, embed, reply && { root: root!, parent: reply.parent }));
        known.set(r.uri, r);
        if (k === 0) root = r;
        return published(r);
      });
    },
    async comment(req: CommentRequest) {
      const { pds, call } = session(acc, db);
      const text = req.text.normalize("NFC");
      const problem = spec.comment.problem(text);
      if (problem) throw new PublishError("failed", `${problem}.`);
      // The reply's key follows from the post's, so that trying the comment again (the owner,
      // after an unknown outcome) names the same record.
      const rkey = nextTid(rkeyOf(req.on));
      const reply = await replyTo(pds, req.on, new Map());
      return published(await create(pds, call, rkey, true, record(text, await facetsOf(text), undefined, reply)));
    },
    async probe(): Promise<Probe> {
      const what = "GET com.atproto.server.getSession";
      try {
        const { call } = session(acc, db);
        const res = await call("com.atproto.server.getSession");
        if (!res.ok) return { reachable: false, detail: `${what} was refused (${res.status}: ${await errorText(res)})` };
        const who = ((await res.json().catch(() => null)) as { handle?: unknown } | null)?.handle;
        return { reachable: true, detail: `${what} answered${typeof who === "string" ? ` as @${who}` : ""}` };
      } catch (e) {
        return { reachable: false, detail: e instanceof PublishError ? e.message : `${what} failed` };
      }
    },
    metrics: blueskyMetrics(),
  };
}
