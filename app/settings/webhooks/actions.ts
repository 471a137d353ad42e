"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerActionContext } from "@/lib/transports/auth/owner-action";
import { expired } from "@/lib/transports/auth/form-errors";
import type { Ctx } from "@/lib/domain/context";
import { AppError, invalid } from "@/lib/core/errors";
import { toDetails } from "@/lib/operations/execute";
import { manageWebhooksOp } from "@/lib/operations/webhooks/manage-webhooks";
import { manageWebhooks, resendDelivery, type ManageWebhooksInput } from "@/lib/domain/webhooks/endpoints";
import type { SubscribableEvent } from "@/lib/domain/webhooks/events";
import type { ActionState } from "@/components/action-form";

// Settings > Webhooks: the owner's forms. Each re-reads the session and checks the page's CSRF
// token, then runs the same domain function as manage_webhooks with the owner as caller.

const PAGE = "/settings/webhooks";

const asOwner = async (form: FormData) => {
  const owner = await ownerActionContext(form, { page: PAGE, purpose: "webhooks", expired: () => null });
  return "ctx" in owner ? owner.ctx : null;
};

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
  const ctx = await asOwner(form);
  if (!ctx) return expired();
  try {
    // The operation's own schema (the form can be edited by hand), then its domain function.
    const parsed = manageWebhooksOp.input.safeParse(input);
    if (!parsed.success) throw invalid(toDetails(parsed.error));
    const { secret } = await manageWebhooks(ctx, parsed.data);
    revalidatePath(PAGE);
    return secret ? { secret } : null;
  } catch (e) {
    return words(e);
  }
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
async function simple(form: FormData, act: (ctx: Ctx) => Promise<string>) {
  const ctx = await asOwner(form);
  if (!ctx) redirect(`${PAGE}?error=expired`);
  let done: string;
  try {
    done = await act(ctx);
  } catch (e) {
    words(e); // anything but a refusal is a real error
    // A fixed message (the address must not carry text the page would show to anyone).
    redirect(`${PAGE}?error=refused#w-${id(form)}`);
  }
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${done}#w-${id(form)}`);
}

export async function togglePaused(form: FormData) {
  await simple(form, async (ctx) => {
    const paused = form.get("paused") === "on";
    await manageWebhooks(ctx, { action: "update", webhook_id: id(form), paused });
    return paused ? "paused" : "resumed";
  });
}

export async function sendTest(form: FormData) {
  await simple(form, async (ctx) => (await manageWebhooks(ctx, { action: "test", webhook_id: id(form) }), "test"));
}

export async function deleteWebhook(form: FormData) {
  await simple(form, async (ctx) => (await manageWebhooks(ctx, { action: "delete", webhook_id: id(form) }), "deleted"));
}

export async function resend(form: FormData) {
  await simple(form, async (ctx) => ((await resendDelivery(ctx.db, ctx.caller.userId, text(form, "deliveryId"), ctx.now())) ? "resent" : "gone"));
}
