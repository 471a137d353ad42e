"use server";
import { redirect } from "next/navigation";
import { ownerForm } from "@/lib/transports/owner/form";
import { decidePlan, planPurpose } from "@/lib/transports/owner/plan-review";

/** Approves the ticked requests of a plan and declines the rest (or all), each through the one door as its own page decides it. */
export async function decidePlanAction(id: string, form: FormData) {
  const page = `/approvals/plan/${id}`;
  const result = await ownerForm(form, { page, purpose: planPurpose(id), expired: () => null }, (door) => decidePlan(door, id, form));
  if (!result) redirect(`${page}?result=expired-form`);
  redirect(`${page}?approved=${result.approved}&declined=${result.declined}&unchanged=${result.unchanged}`);
}
