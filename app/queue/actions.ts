"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerActionContext } from "@/lib/transports/auth/owner-action";
import { expired, refusal } from "@/lib/transports/auth/form-errors";
import { AppError } from "@/lib/core/errors";
import { ownAccount } from "@/lib/domain/accounts/accounts";
import type { Ctx } from "@/lib/domain/context";
import { noteScheduled } from "@/lib/domain/drafts/history";
import { scheduleContent } from "@/lib/domain/publishing/schedule";
import { manageQueue, queueOverview } from "@/lib/domain/queue/queue";
import { parseInput } from "@/lib/operations/execute";
import { manageQueueOp } from "@/lib/operations/queue/manage-queue";
import type { ActionState } from "@/components/action-form";

// The queue page's actions: the same domain functions as manage_queue and schedule_content,
// with the owner in person as caller. Moving a draft is the owner's own action on their page:
// no app approval (an app moving it needs one, like any reschedule).

const PAGE = "/queue";
const text = (form: FormData, k: string) => String(form.get(k) ?? "");

async function act(form: FormData, run: (ctx: Ctx) => Promise<string>): Promise<ActionState> {
  const owner = await ownerActionContext<ActionState>(form, { page: PAGE, purpose: "queue", expired });
  if ("answer" in owner) return owner.answer;
  const { ctx } = owner;
  let to: string;
  try {
    to = await run(ctx);
  } catch (e) {
    if (e instanceof AppError) return { error: refusal(e) };
    throw e;
  }
  revalidatePath(PAGE);
  redirect(to);
}

/** Slots as manage_queue takes them, checked as an app's call is. */
async function setSlots(ctx: Ctx, accountId: string, change: (slots: { weekday: string; time: string }[]) => { weekday: string; time: string }[]) {
  const current = await manageQueue(ctx, { account_id: accountId });
  const input = parseInput(manageQueueOp, { account_id: accountId, slots: change(current.slots) });
  await manageQueue(ctx, input);
}

export async function addSlot(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (ctx) => {
    await setSlots(ctx, text(form, "accountId"), (s) => [...s, { weekday: text(form, "weekday"), time: text(form, "time") }]);
    return `${PAGE}?done=slot-added`;
  });
}

export async function removeSlot(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (ctx) => {
    await setSlots(ctx, text(form, "accountId"), (s) => s.filter((x) => !(x.weekday === text(form, "weekday") && x.time === text(form, "time"))));
    return `${PAGE}?done=slot-removed`;
  });
}

export async function setPaused(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (ctx) => {
    const paused = text(form, "paused") === "on";
    await manageQueue(ctx, { account_id: text(form, "accountId"), paused });
    return `${PAGE}?done=${paused ? "paused" : "resumed"}`;
  });
}

/** Moves a queued draft to another time (a free slot the page offered), or to the end of its account's queue. */
export async function moveDraft(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (ctx) => {
    const type = text(form, "type") === "tweet" ? "tweet" : "post";
    const id = text(form, "id");
    let at = text(form, "to");
    if (at === "end") {
      const account = await ownAccount(ctx.db, ctx.caller.userId, text(form, "accountId"));
      const end = (await queueOverview(ctx.db, ctx.caller.userId, ctx.caller.timezone, account, ctx.now(), 1)).end;
      if (!end) throw new AppError("action_failed", "This queue has no free slot to move it to.", "Add a slot, then try again.");
      at = end.toISOString();
    }
    const out = await scheduleContent(ctx, { type, id, scheduled_for: at });
    await noteScheduled(ctx, type, id, out.scheduled_for);
    return `${PAGE}?done=moved`;
  });
}
