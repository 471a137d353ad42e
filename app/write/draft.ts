import type { Medium } from "./media";

// What the composer holds (composer.tsx): the texts, files and choices of a new draft or of
// one being edited.

export type Draft = {
  toPost: boolean;
  toTweet: boolean;
  postAccount: string;
  tweetAccount: string;
  post: string;
  parts: string[];
  comment: string;
  postMedia: Medium[];
  /** Each thread part's images, beside `parts`. */
  partMedia: Medium[][];
};

export const EMPTY: Draft = {
  toPost: true,
  toTweet: false,
  postAccount: "",
  tweetAccount: "",
  post: "",
  parts: [""],
  comment: "",
  postMedia: [],
  partMedia: [[]],
};
export const typed = (d: Draft) =>
  !!(d.post.trim() || d.parts.some((p) => p.trim()) || d.comment.trim() || d.postMedia.length || d.partMedia.some((m) => m.length));

/** A draft that exists, opened from its page: what the form saves it on top of. */
export type Editing = {
  type: "post" | "tweet";
  id: string;
  /** The hash of the content the page showed, and its updated_at. */
  shown: string;
  updatedAt: string;
  /** Its account as the account choice shows it ("" for the default). */
  accountWas: string;
  draft: Draft;
  /** An unscheduled draft: its texts save themselves as the owner pauses (autosave.ts). */
  autosave: boolean;
};
