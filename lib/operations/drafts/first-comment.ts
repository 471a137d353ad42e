import { z } from "zod";
import { MAX_LINKEDIN_COMMENT_CHARS } from "@/lib/domain/networks";
import { checkTweetLength } from "../rules";

// The first comment create_draft and update_draft take: posted right after the post, once.

const FirstComment = z.string().trim().min(1).max(3000);
const DESCRIBED =
  "Posted right after the post, once: on LinkedIn a comment on the post, on X a reply to the tweet (a thread: to its last part). " +
  `At most ${MAX_LINKEDIN_COMMENT_CHARS} characters for a post, 280 as X counts them for a tweet. Typical use: the link you keep out of the post`;

export const createFirstComment = { first_comment: FirstComment.optional().describe(DESCRIBED) };
export const updateFirstComment = { first_comment: FirstComment.nullable().optional().describe(`${DESCRIBED}; null removes it`) };

/** Each network's limit: a LinkedIn comment's characters, a reply's weighted length. */
export function checkFirstComment(v: { type: "post" | "tweet"; first_comment?: string | null }, ctx: z.RefinementCtx) {
  const text = v.first_comment;
  if (!text) return;
  if (v.type === "tweet") return checkTweetLength(text, ctx, ["first_comment"], "first_comment");
  const n = Array.from(text).length;
  if (n > MAX_LINKEDIN_COMMENT_CHARS)
    ctx.addIssue({
      code: "custom",
      path: ["first_comment"],
      message: `A LinkedIn comment is at most ${MAX_LINKEDIN_COMMENT_CHARS} characters; this one has ${n}`,
    });
}
