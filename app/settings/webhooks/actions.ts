"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerForm, type FormDoor } from "@/lib/transports/owner/form";
import { expired } from "@/lib/transports/auth/form-errors";
import { AppError } from "@/lib/core/errors";
import { manageWebhooksOp } from "@/lib/operations/webhooks/manage-webhooks";
import { resendDeliveryOp } from "@/lib/operations/in-person/resend-delivery";
import type { ManageWebhooksInput } from "@/lib/domain/webhooks/endpoints";
import type { SubscribableEvent } from "@/lib/domain/webhooks/events";
import type { ActionState } from "@/components/action-form";

// Settings > Webhooks: the owner's forms, through the one door as the owner in person
// (manage_webhooks, as an app calls it; resend_delivery). Each re-reads the session and
// checks the page's CSRF token.

const PAGE = "/settings/webhooks";

const EXPIRED = Symbol("expired");

/** Runs `act` as the owner; EXPIRED when the form's token is not (or no longer) theirs. */
const asOwner = <T>(form: FormData, act: (door: FormDoor) => Promise<T>) =>
  ownerForm<T | typeof EXPIRED>(form, { page: PAGE, purpose: "webhooks", expired: () => EXPIRED }, act);

const text = (form: FormData, k: string) => String(form.get(k) ?? "").trim();
const events = (form: FormData) => form.getAll("events").map(String) as SubscribableEvent[];
const id = (form: FormData) => text(form, "webhookId");

/** A refusal in the API's words (a field problem says which). */
function words(e: unknown): { error: string } {
  if (!(e instanceof AppError)) throw e;
  return {
    error: e.details?.length
      ? e.details.map((d) => `${d.path === "events" ? "Events" : d.path === "url" ? "URL" : d.path}: ${d.message}.`).join(" ")
      : [e.message, e.hint].filter(Boolean).join(" "),
  };
}

async function run(form: FormData, input: ManageWebhooksInput): Promise<ActionState> {
  const answer = await asOwner<ActionState>(form, async (door) => {
    try {
      const { secret } = await door.run(manageWebhooksOp, input);
      revalidatePath(PAGE);
      return secret ? { secret } : null;
    } catch (e) {
      return words(e);
    }
  });
  return answer === EXPIRED ? expired() : answer;
}

export async function createWebhook(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(form, { action: "create", url: text(form, "url"), events: events(form), description: text(form, "description") || undefined });
}

export async function rotateSecret(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(form, { action: "rotate_secret", webhook_id: id(form) });
}

export async function updateWebhook(_prev: ActionState, form: FormData): Promise<ActionState> {
  const res = await run(form, {
    action: "update",
    webhook_id: id(form),
    url: text(form, "url"),
    events: events(form),
    description: text(form, "description") || null,
  });
  if (res?.error) return res;
  redirect(`${PAGE}?done=saved#w-${id(form)}`);
}

/** Pause, resume, send a test, delete, resend: each lands back on the page with what happened. */
async function simple(form: FormData, act: (door: FormDoor) => Promise<string>) {
  const done = await asOwner(form, async (door) => {
    try {
      return await act(door);
    } catch (e) {
      words(e); // anything but a refusal is a real error
      return null;
    }
  });
  if (done === EXPIRED) redirect(`${PAGE}?error=expired`);
  // A fixed message (the address must not carry text the page would show to anyone).
  if (done === null) redirect(`${PAGE}?error=refused#w-${id(form)}`);
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${done}#w-${id(form)}`);
}

export async function togglePaused(form: FormData) {
  await simple(form, async (door) => {
    const paused = form.get("paused") === "on";
    await door.run(manageWebhooksOp, { action: "update", webhook_id: id(form), paused });
    return paused ? "paused" : "resumed";
  });
}

export async function sendTest(form: FormData) {
  await simple(form, async (door) => (await door.run(manageWebhooksOp, { action: "test", webhook_id: id(form) }), "test"));
}

export async function deleteWebhook(form: FormData) {
  await simple(form, async (door) => (await door.run(manageWebhooksOp, { action: "delete", webhook_id: id(form) }), "deleted"));
}

export async function resend(form: FormData) {
  await simple(form, async (door) => ((await door.run(resendDeliveryOp, { delivery_id: text(form, "deliveryId") })).resent ? "resent" : "gone"));
}
