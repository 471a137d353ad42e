import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { draftTable } from "@/lib/domain/drafts/drafts";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { sandboxPosts } from "@/drizzle/schema";
import { call, expectError, expectOk, type TestUser } from "./api";

/** A draft of the user's; a tweet comes with its parent post. */
export async function draft(u: TestUser, type: "post" | "tweet" = "post", body = `Draft ${Math.random()}`) {
  return expectOk(await call("create_draft", { type, body }, { token: u.token }), createDraftOp.output) as { id: string; linked_post_id: string | null };
}

/** Calls a confirmed operation as the user would: refused, approved by the owner, repeated. */
export async function approved(u: TestUser, op: string, args: Record<string, unknown>) {
  const first = await call(op, args, { token: u.token });
  if (first.status !== 403 || first.body?.error?.code !== "confirmation_required") return first;
  expectError(first, 403, "confirmation_required");
  expect(await decideApproval(await db(), u.id, first.body.error.confirmation.id, "approved")).toBe(true);
  return call(op, args, { token: u.token });
}

export async function row(type: "post" | "tweet", id: string) {
  const t = draftTable(type);
  return (await (await db()).select().from(t).where(eq(t.id, id)))[0];
}

/** How many times the sandbox received this draft: the duplicate counter. */
export async function sandboxCount(draftId: string, platform?: "pronet" | "micro") {
  const rows = await (
    await db()
  )
    .select({ id: sandboxPosts.id })
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.draftId, draftId), platform ? eq(sandboxPosts.platform, platform) : undefined));
  return rows.length;
}

export const inSeconds = (s: number, from = Date.now()) => new Date(from + s * 1000);
