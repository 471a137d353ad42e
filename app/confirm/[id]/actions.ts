"use server";
import { redirect } from "next/navigation";
import { checkCsrf, signedInUserId } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { decideApproval } from "@/lib/domain/confirmations";

/** Approve or deny one exact action: only its owner, only while pending and unexpired. */
export async function decide(id: string, form: FormData) {
  const page = `/confirm/${id}`;
  const userId = await signedInUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(page)}`);
  if (!checkCsrf(userId, `confirm:${id}`, form.get("csrf"))) redirect(`${page}?result=expired-form`);
  const decision = form.get("decision") === "approve" ? "approved" : "denied";
  const ok = await decideApproval(await db(), userId, id, decision);
  redirect(`${page}?result=${ok ? decision : "late"}`);
}
