import type { Confirmation } from "@/lib/core/errors";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb } from "./columns";
import { appRef } from "./connected-apps";
import { userRef } from "./owner-columns";

/**
 * For an edit of a scheduled draft: the content it would have after the edit (attachments:
 * its images, document and thread parts; absent on approvals made before they existed).
 */
export type ProposedContent = { title: string; body: string; image_url: string | null; attachments?: ApprovalAttachments };

/** Everything else the audience will see, shown on the approval page and covered by its hash. */
export type ApprovalAttachments = {
  image_urls: string[];
  document: { url: string; title: string | null } | null;
  thread: { text: string; image_urls: string[] }[];
  /** Absent when the draft has none (and on approvals made before first comments existed). */
  first_comment?: string;
  /** A LinkedIn post's link card (article content); absent when it goes without one. */
  link_card?: { source: string; title: string; description: string; image: string | null };
};

export type ApprovalStatus = "pending" | "approved" | "denied" | "used";
/** What an approval is of, as the API's confirmation_required error and the approval page show it. */
export type ApprovalAction = Confirmation["action"];
/**
 * The plan an approval waits in (lib/domain/approvals/plans.ts): the app's label, the review's
 * id and when its first call came (ISO, UTC), kept beside the action in its JSON.
 */
export type ApprovalPlan = { id: string; label: string; started: string };
export type StoredAction = ApprovalAction & { plan?: ApprovalPlan };

// The owner's approval of one exact action (docs/interface.md, Confirmation). It matches only the same
// user, app, operation, arguments (args_hash) and draft content (content_hash), once.
export const approvals = pgTable(
  "approvals",
  {
    id: id(),
    userId: userRef(),
    appId: appRef(),
    operation: text("operation").notNull(),
    argsHash: text("args_hash").notNull(),
    contentHash: text("content_hash").notNull(),
    action: jsonb("action").$type<StoredAction>().notNull(),
    // The full text as it will be acted on, shown on the approval page.
    body: text("body").notNull(),
    // The image as it will be acted on (null: none).
    imageUrl: text("image_url"),
    // Images, document and thread parts as they will be acted on.
    attachments: jsonb("attachments").$type<ApprovalAttachments>(),
    // An edit's proposed content, shown beside the current one.
    proposed: jsonb("proposed").$type<ProposedContent>(),
    status: text("status").$type<ApprovalStatus>().notNull().default("pending"),
    expiresAt: at("expires_at").notNull(),
    decidedAt: at("decided_at"),
    usedAt: at("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("approvals_lookup_idx").on(t.userId, t.appId, t.operation, t.argsHash)],
);
