import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { db } from "@/lib/adapters/db";
import type { Caller } from "@/lib/domain/context";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerCaller } from "@/lib/domain/owner/owner";
import { checkCsrf } from "@/lib/transports/auth/csrf";
import type { Operation } from "@/lib/operations/define";
import { runOperation } from "@/lib/operations/run";

// The owner's pages as one more transport over the one door (lib/operations/run.ts): their
// forms call operations as REST and MCP do, with the owner in person as the caller, so the
// same schema, guards, history, idempotency and approval rules hold for every surface.

export type OwnerCall = {
  /**
   * The key the page made when it was drawn: a second submission with it (a double press)
   * answers with the first one's outcome and does nothing again.
   */
  key?: string;
  /** The hash of the draft's content as the page showed it: an action acts on that content only. */
  shown?: string;
};

/** A key for a form of the owner's pages, made as the page is drawn (OwnerCall.key). */
export const formKey = () => randomUUID();

/** Runs `op` through the one door as the owner in person; `readInput` gives its input (a form's fields, an upload's body). */
export async function ownerRun<O extends Operation>(caller: Caller, op: O, readInput: () => unknown, o: OwnerCall = {}): Promise<z.output<O["output"]>> {
  if (!caller.inPerson) throw new Error("ownerRun is for the owner in person");
  const out = await runOperation(caller, op, readInput, { requestId: `owner:${randomUUID()}`, idempotencyKey: o.key || undefined, shown: o.shown });
  // The owner's own page is the confirmation: an approval is never asked of them.
  if (out.kind !== "done") throw new Error(`the owner's action ended as ${out.kind}`);
  return out.result as z.output<O["output"]>;
}

/** The owner in person behind a form: null when its CSRF token is not this user's for `purpose`, or the user is gone. */
export async function formCaller(userId: string, form: FormData, purpose: string): Promise<Caller | null> {
  if (!checkCsrf(userId, purpose, form.get("csrf"))) return null;
  const profile = await getProfile(await db(), userId);
  return profile ? ownerCaller({ id: userId, ...profile }) : null;
}

/** What a form's action is handed: the owner as caller, and the one door with the form's key and shown hash. */
export type FormDoor = {
  caller: Caller;
  /** Runs `op` as the owner, with the form's `key` and `shown` fields unless `o` says otherwise. */
  run<O extends Operation>(op: O, input: unknown, o?: OwnerCall): Promise<z.output<O["output"]>>;
};

const field = (form: FormData, k: string) => {
  const v = form.get(k);
  return typeof v === "string" ? v : undefined;
};

/** The door of a signed-in owner's form: null when its CSRF token is not theirs for `purpose` (ownerForm, past the session). */
export async function formDoor(userId: string, form: FormData, purpose: string): Promise<FormDoor | null> {
  const caller = await formCaller(userId, form, purpose);
  if (!caller) return null;
  const sent: OwnerCall = { key: field(form, "key"), shown: field(form, "shown") };
  return { caller, run: (op, input, c) => ownerRun(caller, op, () => input, { ...sent, ...c }) };
}
