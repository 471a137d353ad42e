"use server";
import { redirect } from "next/navigation";
import { ownerForm } from "@/lib/transports/owner/form";
import { AppError } from "@/lib/core/errors";
import { decideApprovalOp } from "@/lib/operations/in-person/decide-approval";

/** Approve or deny one exact action, through the one door: only its owner, only while pending and unexpired. */
export async function decide(id: string, form: FormData) {
  const page = `/confirm/${id}`;
  const expired = () => redirect(`${page}?result=expired-form`);
  const result = await ownerForm(form, { page, purpose: `confirm:${id}`, expired }, async (door) => {
    const decision = form.get("decision") === "approve" ? "approved" : "denied";
    try {
      return (await door.run(decideApprovalOp, { id, decision })).decided ? decision : "late";
    } catch (e) {
      // Not a request of this owner's that is still waiting (an address of the wrong shape included).
      if (e instanceof AppError) return "late";
      throw e;
    }
  });
  redirect(`${page}?result=${result}`);
}
