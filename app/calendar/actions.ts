"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerStep } from "@/lib/transports/owner/form";
import { expired } from "@/lib/transports/auth/form-errors";
import { scheduleOnDayOp } from "@/lib/operations/in-person/schedule-on-day";
import type { ActionState } from "@/components/action-form";

// The calendar's one action: a draft dragged (or, without dragging, sent with a day) onto a
// day, through the one door as the owner in person (schedule_on_day). The form carries the
// hash of the content the owner last saw in full (the calendar shows titles only) and the key
// the page made when it was drawn.

const text = (form: FormData, k: string) => String(form.get(k) ?? "");

export async function moveToDay(_prev: ActionState, form: FormData): Promise<ActionState> {
  // Back to the view the owner was on, built here rather than taken from the form.
  const anchor = /^\d{4}-\d{2}-\d{2}$/.test(text(form, "d")) ? text(form, "d") : text(form, "day");
  const back = `/calendar?view=${text(form, "view") === "week" ? "week" : "month"}${/^\d{4}-\d{2}-\d{2}$/.test(anchor) ? `&d=${anchor}` : ""}`;
  const done = await ownerStep(form, { page: back, purpose: "calendar", expired }, async (door) => {
    const out = await door.run(scheduleOnDayOp, { type: text(form, "type"), id: text(form, "id"), day: text(form, "day") });
    return out.rescheduled ? "moved" : "scheduled";
  });
  if (typeof done !== "string") return done;
  revalidatePath("/calendar");
  redirect(`${back}&done=${done}`);
}
