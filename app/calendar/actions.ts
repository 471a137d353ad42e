"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerActionContext } from "@/lib/transports/auth/owner-action";
import { expired, refusal } from "@/lib/transports/auth/form-errors";
import { AppError } from "@/lib/core/errors";
import { scheduleOnDay } from "@/lib/domain/publishing/calendar-move";
import type { ActionState } from "@/components/action-form";

// The calendar's one action: a draft dragged (or, without dragging, sent with a day) onto a
// day. The owner's own action on their page, so no app approval; schedule_content's domain
// function decides, as for the item page's Schedule.

const text = (form: FormData, k: string) => String(form.get(k) ?? "");

export async function moveToDay(_prev: ActionState, form: FormData): Promise<ActionState> {
  // Back to the view the owner was on, built here rather than taken from the form.
  const anchor = /^\d{4}-\d{2}-\d{2}$/.test(text(form, "d")) ? text(form, "d") : text(form, "day");
  const back = `/calendar?view=${text(form, "view") === "week" ? "week" : "month"}${/^\d{4}-\d{2}-\d{2}$/.test(anchor) ? `&d=${anchor}` : ""}`;
  const owner = await ownerActionContext<ActionState>(form, { page: back, purpose: "calendar", expired });
  if ("answer" in owner) return owner.answer;
  const { ctx } = owner;
  const type = text(form, "type");
  if (type !== "post" && type !== "tweet") return { error: "Unknown kind of draft." };
  let done: string;
  try {
    const out = await scheduleOnDay(ctx, { type, id: text(form, "id"), day: text(form, "day"), ...(form.has("shown") && { shown: text(form, "shown") }) });
    done = out.rescheduled ? "moved" : "scheduled";
  } catch (e) {
    if (e instanceof AppError) return { error: refusal(e) };
    throw e;
  }
  revalidatePath("/calendar");
  redirect(`${back}&done=${done}`);
}
