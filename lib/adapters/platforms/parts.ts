import { DuplicateRefusal, PublishError, type MediaItem, type Published, type PublishProgress, type PublishRequest } from "@/lib/domain/networks/platform";

// Part by part, at most once: every part posted and every medium uploaded is stored (through
// the request's onProgress) before the next platform call, and a resumed publish starts
// after the last stored one. Shared by every adapter so that they resume alike.

const copy = (p: PublishProgress): PublishProgress => ({
  parts: [...p.parts],
  media: { ...p.media },
  ...(p.mediaExpires && { mediaExpires: { ...p.mediaExpires } }),
  ...(p.keys && { keys: [...p.keys] }),
});
/** A recorded upload is reused only while it stays valid for at least this long. */
const FRESH_MS = 3600_000;

/** A platform's id for an uploaded medium, and when the platform forgets it (if it does). */
export type Uploaded = { id: string; expiresAt?: Date };

/** What has reached the platform so far in this publish, stored as it grows. */
export class Progress {
  private current: PublishProgress;
  constructor(private readonly req: PublishRequest) {
    this.current = copy(req.progress);
  }
  get parts() {
    return this.current.parts;
  }
  /** The record keys chosen so far, by part (see key()). */
  get keys(): readonly (string | undefined)[] {
    return this.current.keys ?? [];
  }
  /**
   * The platform's id for a medium: the one recorded by an earlier attempt (unless it expires
   * within the hour), else `upload()`'s, recorded before it is used. An upload alone publishes
   * nothing (an unused upload is never shown), so an upload whose outcome is unknown is
   * retried rather than left `unknown`.
   */
  async media(m: MediaItem, upload: () => Promise<string | Uploaded>): Promise<string> {
    const known = this.current.media[m.id];
    const expires = this.current.mediaExpires?.[m.id];
    if (known && !(expires && Date.parse(expires) < this.req.now.getTime() + FRESH_MS)) return known;
    let up: Uploaded;
    try {
      const r = await upload();
      up = typeof r === "string" ? { id: r } : r;
    } catch (e) {
      if (e instanceof PublishError && e.kind === "unknown")
        throw new PublishError("retry", `${e.message} (an upload of media, not a post: nothing was published)`);
      throw e;
    }
    const mediaExpires = { ...this.current.mediaExpires };
    if (up.expiresAt) mediaExpires[m.id] = up.expiresAt.toISOString();
    else delete mediaExpires[m.id];
    this.current = { ...this.current, media: { ...this.current.media, [m.id]: up.id }, ...(Object.keys(mediaExpires).length && { mediaExpires }) };
    await this.req.onProgress(copy(this.current));
    return up.id;
  }
  /**
   * The key part k is sent under (a network where the client names the record: Bluesky): the
   * one an earlier attempt chose, else `make()`'s, stored before it is used. Sent again, the
   * part names the same record, so the network refuses a second one.
   */
  async key(k: number, make: () => string): Promise<string> {
    const known = this.current.keys?.[k];
    if (known) return known;
    const keys = [...(this.current.keys ?? [])];
    keys[k] = make();
    this.current = { ...this.current, keys };
    await this.req.onProgress(copy(this.current));
    return keys[k];
  }
  async posted(k: number, p: Published) {
    const parts = [...this.current.parts];
    parts[k] = { postId: p.postId, url: p.url };
    this.current = { ...this.current, parts };
    await this.req.onProgress(copy(this.current));
  }
}

const range = (k: number) => (k === 1 ? "part 1" : `parts 1–${k}`);

/** Says where a publish of `n` parts stopped, keeping the kind (retry/failed/unknown). */
function at(e: PublishError, k: number, n: number): PublishError {
  if (n === 1) return e;
  // Still a duplicate refusal: publishing tells a retry's duplicate from a first one's.
  if (e instanceof DuplicateRefusal)
    return new DuplicateRefusal(k === 0 ? `part 1 of ${n}: ${e.said}` : `posted ${range(k)} of ${n}; part ${k + 1}: ${e.said}`);
  if (k === 0) return new PublishError(e.kind, `part 1 of ${n} failed: ${e.message}`, e.retryAt, e.dailyCap);
  const resume = e.kind === "unknown" ? "" : ` Publishing again continues with part ${k + 1} and never re-posts ${range(k)}.`;
  return new PublishError(e.kind, `posted ${range(k)} of ${n}; part ${k + 1} failed: ${e.message}${resume}`, e.retryAt, e.dailyCap);
}

/**
 * Posts the parts not posted yet, in order; `post` gets the id of the part before (the one
 * a thread part replies to). Returns the first part: a thread's link is its first post's.
 */
export async function postParts(req: PublishRequest, post: (k: number, replyTo: string | null, progress: Progress) => Promise<Published>): Promise<Published> {
  const progress = new Progress(req);
  const n = req.parts.length;
  const single = n === 1 && !req.parts[0].media.length && !req.document;
  let first: Published | undefined;
  for (let k = progress.parts.length; k < n; k++) {
    let p: Published;
    try {
      p = await post(k, k > 0 ? progress.parts[k - 1].postId : null, progress);
    } catch (e) {
      throw e instanceof PublishError ? at(e, k, n) : e;
    }
    // A failure to store this (the database) is not a PublishError: publishing records the
    // draft `unknown`, never re-posting a part it could not record. A publish that is one
    // platform call (one part, no media) has nothing to resume: its outcome is recorded as
    // before, and the scheduler's bulk write stays one statement for many drafts.
    if (!single) await progress.posted(k, p);
    else first = p;
  }
  return first ?? progress.parts[0];
}
