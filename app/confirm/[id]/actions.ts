"use server";
import { redirect } from "next/navigation";
import { ownerAction } from "@/lib/transports/auth/owner-action";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";

/** Approve or deny one exact action: only its owner, only while pending and unexpired. */
export async function decide(id: string, form: FormData) {
  const page = `/confirm/${id}`;
  const expired = () => redirect(`${page}?result=expired-form`);
  await ownerAction(form, { page, purpose: `confirm:${id}`, expired }, async (userId) => {
    const decision = form.get("decision") === "approve" ? "approved" : "denied";
    const ok = await decideApproval(await db(), userId, id, decision);
    redirect(`${page}?result=${ok ? decision : "late"}`);
  });
}
