import type { z } from "zod";
import { AppError, invalid, type ErrorDetail } from "@/lib/core/errors";
import type { Ctx } from "@/lib/domain/context";
import { requireCompleteAccount, requirePlan, requirePublishing } from "@/lib/domain/guards";
import { noteOperation } from "@/lib/domain/drafts/history";
import { checkIdempotencyKey, withIdempotency } from "@/lib/domain/idempotency";
import { needsPublishingSwitch, type Operation } from "./define";
import { refuseBadInput } from "./sanitize";

type Issue = z.core.$ZodIssue;

/**
 * A union's failure names the one branch that had the right kind of value, when only one did
 * (a thread part that is an object is judged as the object branch, not "Invalid input"), or
 * among objects the one branch that knew every field sent (generate_tweet's topic or
 * from_post_id form).
 */
function unionBranch(issue: Issue): Issue[] | null {
  if (issue.code !== "invalid_union" || !issue.errors?.length) return null;
  const rightType = issue.errors.filter((branch) => !branch.every((i) => i.code === "invalid_type" && i.path.length === 0));
  // Among objects: the branch whose fields were all known (the one the caller meant).
  const knownFields = rightType.filter((branch) => !branch.some((i) => i.code === "unrecognized_keys" && i.path.length === 0));
  const pick = rightType.length === 1 ? rightType : knownFields.length === 1 ? knownFields : null;
  if (!pick) return null;
  return pick[0].map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue);
}

/** zod issues as an error's details (docs/interface.md, Errors): one entry per problem, with a dotted path. */
export function toDetails(error: { issues: Issue[] }): ErrorDetail[] {
  return error.issues.flatMap((issue): ErrorDetail[] => {
    const branch = unionBranch(issue);
    if (branch) return toDetails({ issues: branch });
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((k) => ({ path: base ? `${base}.${k}` : k, message: "Unknown field" }));
    }
    return [{ path: base || "(body)", message: issue.message }];
  });
}

/** An operation's input checked as every caller's is (the owner's forms too), or invalid_request. */
export function parseInput<O extends Operation>(op: O, rawInput: unknown): z.output<O["input"]> {
  refuseBadInput(rawInput);
  const parsed = op.input.safeParse(rawInput);
  if (!parsed.success) throw invalid(toDetails(parsed.error));
  return parsed.data as z.output<O["input"]>;
}

/**
 * A second press of an owner's button carries the key of the first: it waits this long for the
 * first one's answer (a publish can take as long as the network does) rather than being refused.
 */
const OWNER_KEY_WAIT_MS = 60_000;

/**
 * What every operation goes through: plan, account, input, the publishing switch, then the
 * operation itself (with its Idempotency-Key when one is sent for a non-read-only one).
 */
export async function execute(ctx: Ctx, op: Operation, rawInput: unknown, opts: { idempotencyKey?: string } = {}) {
  if (op.inPersonOnly && !ctx.caller.inPerson) throw new AppError("action_failed", "Only the account owner can do this, on their own pages.");
  requirePlan(ctx.caller);
  requireCompleteAccount(ctx.caller);
  const input = parseInput(op, rawInput) as Record<string, unknown>;
  // An approved app holds content:read, content:write and analytics:read; what needs the
  // owner's publishing switch says so in its definition (docs/interface.md, Permissions).
  if (needsPublishingSwitch(op)) requirePublishing(ctx.caller);
  // confirmation_id names an approval, and plan the review it waits in; neither is part of the action itself.
  const { confirmation_id, plan, ...args } = input;
  const run = async () => {
    const out = await op.run({ ...ctx, confirmationId: confirmation_id as string | undefined, plan: plan as string | undefined }, args);
    // The draft's history for its owner (which app did what); reads write nothing.
    if (!op.hints.readOnly) await noteOperation(ctx, op.name, args, out);
    return out;
  };
  if (opts.idempotencyKey !== undefined && !op.hints.readOnly) {
    checkIdempotencyKey(opts.idempotencyKey);
    return withIdempotency(ctx, opts.idempotencyKey, op.name, args, run, { waitMs: ctx.caller.inPerson ? OWNER_KEY_WAIT_MS : 0 });
  }
  return run();
}
