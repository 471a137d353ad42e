import { db } from "@/lib/adapters/db";
import { presentError } from "@/lib/core/errors/present";
import type { Caller } from "@/lib/domain/context";
import { contentHashOf } from "@/lib/domain/drafts/content-hash";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerCaller } from "@/lib/domain/owner/owner";
import type { Operation } from "@/lib/operations/define";
import { findOperation, ownerOperations } from "@/lib/operations/registry";
import { ownerRun, type OwnerCall } from "@/lib/transports/owner/door";
import type { Called, TestUser } from "./api";
import { row } from "./publishing";

// The owner's pages as a surface, in process: their forms' way into the one door
// (lib/transports/owner), past the session and CSRF checks that the browser tests cover.

/** The owner in person, as their pages' forms act. */
export async function ownerOf(u: Pick<TestUser, "id">): Promise<Caller> {
  return ownerCaller({ id: u.id, ...(await getProfile(await db(), u.id))! });
}

export const opNamed = (name: string): Operation => (findOperation(name) ?? ownerOperations.find((o) => o.name === name))!;

/** An operation run as the owner's form runs it, answered as REST answers (status and the same body). */
export async function asOwner(u: Pick<TestUser, "id">, op: string | Operation, input: unknown, o: OwnerCall = {}): Promise<Called> {
  const caller = await ownerOf(u);
  try {
    const out = await ownerRun(caller, typeof op === "string" ? opNamed(op) : op, () => input, o);
    return { status: 200, headers: new Headers(), body: JSON.parse(JSON.stringify(out)) };
  } catch (e) {
    const a = presentError(e, "test", "/api/v1");
    return { status: a.status, headers: new Headers(a.headers), body: a.body };
  }
}

/** The hash of a draft's content as its page shows it (the forms' `shown`). */
export const shownOf = async (type: "post" | "tweet", id: string) => contentHashOf(await row(type, id));
