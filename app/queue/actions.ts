"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerStep, type FormDoor } from "@/lib/transports/owner/form";
import { expired } from "@/lib/transports/auth/form-errors";
import { manageQueueOp } from "@/lib/operations/queue/manage-queue";
import { moveInQueueOp } from "@/lib/operations/in-person/move-in-queue";
import type { ActionState } from "@/components/action-form";

// The queue page's actions through the one door as the owner in person: its slots and pause
// as manage_queue sets them for an app, and the move of a queued draft (move_in_queue).

const PAGE = "/queue";
const text = (form: FormData, k: string) => String(form.get(k) ?? "");

async function act(form: FormData, run: (door: FormDoor) => Promise<string>): Promise<ActionState> {
  const to = await ownerStep(form, { page: PAGE, purpose: "queue", expired }, run);
  if (typeof to !== "string") return to;
  revalidatePath(PAGE);
  redirect(to);
}

type Slot = { weekday: string; time: string };

/** The account's slots changed by `change`, as manage_queue reads and sets them. */
async function setSlots(door: FormDoor, accountId: string, change: (slots: Slot[]) => Slot[]) {
  const current = await door.run(manageQueueOp, { account_id: accountId });
  await door.run(manageQueueOp, { account_id: accountId, slots: change(current.slots) });
}

export async function addSlot(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (door) => {
    await setSlots(door, text(form, "accountId"), (s) => [...s, { weekday: text(form, "weekday"), time: text(form, "time") }]);
    return `${PAGE}?done=slot-added`;
  });
}

export async function removeSlot(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (door) => {
    await setSlots(door, text(form, "accountId"), (s) => s.filter((x) => !(x.weekday === text(form, "weekday") && x.time === text(form, "time"))));
    return `${PAGE}?done=slot-removed`;
  });
}

export async function setPaused(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (door) => {
    const paused = text(form, "paused") === "on";
    await door.run(manageQueueOp, { account_id: text(form, "accountId"), paused });
    return `${PAGE}?done=${paused ? "paused" : "resumed"}`;
  });
}

/** Moves a queued draft to another time (a free slot the page offered), or to the end of its account's queue. */
export async function moveDraft(_prev: ActionState, form: FormData): Promise<ActionState> {
  return act(form, async (door) => {
    await door.run(moveInQueueOp, { type: text(form, "type") === "tweet" ? "tweet" : "post", id: text(form, "id"), to: text(form, "to") });
    return `${PAGE}?done=moved`;
  });
}
