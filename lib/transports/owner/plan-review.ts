import { db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { planRequests, waiting } from "@/lib/domain/approvals/plans";
import { decideApprovalOp } from "@/lib/operations/in-person/decide-approval";
import type { FormDoor } from "./door";

// A plan's review posts one form for all of its requests: per request shown, a hidden `item`
// ("<approval id>:<decisionHash>") and a checkbox `approve` (its id), ticked by default, and
// the pressed button's `decision` ("approve": the ticked ones; anything else declines all).
// Each request is then decided as its own page decides it: decide_approval through the door,
// with the hash the page showed, so each approval is bound to its own exact content.

/** What the form's CSRF token is issued for. */
export const planPurpose = (planId: string) => `plan:${planId}`;

export type PlanOutcome = { approved: number; declined: number; unchanged: number };

const strings = (form: FormData, k: string) => form.getAll(k).filter((v): v is string => typeof v === "string");

/**
 * Decides the requests the form says it showed of plan `planId`: only the owner's own, only
 * this plan's, only those still waiting, and only as shown (a changed hash decides nothing).
 */
export async function decidePlan(door: FormDoor, planId: string, form: FormData): Promise<PlanOutcome> {
  const now = new Date();
  const open = new Set((await planRequests(await db(), door.caller.userId, planId)).filter((r) => waiting(r, now)).map((r) => r.id));
  const approve = form.get("decision") === "approve";
  const ticked = new Set(strings(form, "approve"));
  const key = form.get("key");
  const out: PlanOutcome = { approved: 0, declined: 0, unchanged: 0 };
  const seen = new Set<string>();
  for (const item of strings(form, "item")) {
    const [id, shown] = item.split(":");
    if (!id || !shown || seen.has(id)) continue;
    seen.add(id);
    if (!open.has(id)) {
      out.unchanged++;
      continue;
    }
    const decision = approve && ticked.has(id) ? "approved" : "denied";
    let decided = false;
    try {
      // A key per request (the page's, extended): a repeated press answers as the first did for each.
      const o = { shown, key: typeof key === "string" && key ? `${key}:${id}` : undefined };
      decided = (await door.run(decideApprovalOp, { id, decision }, o)).decided;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
    }
    if (!decided) out.unchanged++;
    else if (decision === "approved") out.approved++;
    else out.declined++;
  }
  return out;
}
