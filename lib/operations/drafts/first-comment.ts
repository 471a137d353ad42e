import { z } from "zod";
import { MAX_LINKEDIN_COMMENT_CHARS } from "@/lib/domain/networks";

// The first comment create_draft and update_draft take: posted right after the post, once.
// Its length is its network's (lib/domain/drafts/fit.ts).

const FirstComment = z.string().trim().min(1).max(3000);
const DESCRIBED =
  "Posted right after the post, once: on LinkedIn a comment on the post, on X and Bluesky a reply to the post (a thread: to its last part). " +
  `At most ${MAX_LINKEDIN_COMMENT_CHARS} characters for a post; a tweet's as long as a tweet on its network ` +
  "(280 as X counts them, 300 on Bluesky). Typical use: the link you keep out of the post";

export const createFirstComment = { first_comment: FirstComment.optional().describe(DESCRIBED) };
export const updateFirstComment = { first_comment: FirstComment.nullable().optional().describe(`${DESCRIBED}; null removes it`) };
