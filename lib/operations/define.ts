import type { z } from "zod";
import type { Ctx, Permission } from "@/lib/domain/context";

/** Conditions on the account, beyond the token's permission, that execute() enforces. */
export type Requirement = "publishing";

export type Hints = { readOnly: boolean; destructive: boolean; idempotent: boolean; openWorld: boolean };

/**
 * How an operation that can need the owner's approval is put to the owner, wherever they are
 * asked (MCP's approval form and link, the approval page): surfaces read this, never the
 * operation's name.
 */
export type Approval = {
  /** What the app asks to do, completing "<app> wants to ___ this post": "publish now". */
  verb: string;
  /**
   * The action cannot be taken back once done (a deletion, a publication), and the owner is
   * told so. Not `hints.destructive`, which scheduling also is (it replaces a draft's
   * schedule) though it can be undone.
   */
  irreversible?: true;
};

/** One operation, one definition: REST, MCP, OpenAPI, discovery and llms.txt loop over these. */
export type Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  name: string;
  /** Human title (MCP tool title). */
  title: string;
  /** One line (discovery list, OpenAPI summary). */
  summary: string;
  /** When to use it, and when not: read by language models. */
  description: string;
  permission: Permission;
  /**
   * "publishing": the owner's switch "Allow connected apps to publish, schedule and delete"
   * must be on (content:publish implies it). Enforced once, in execute().
   */
  requires?: readonly Requirement[];
  /** Whether every call needs the owner's approval of its exact action. */
  confirmation: boolean;
  /**
   * When only some calls need that approval: the condition, completing "needs the owner's
   * approval ..." (discovery keeps `confirmation` a boolean, so this is said in words).
   */
  confirmationWhen?: string;
  /** Needed when `confirmation` or `confirmationWhen` says the owner may be asked. */
  approval?: Approval;
  hints: Hints;
  /**
   * A larger request body than the default 256 KiB, for this operation only (upload_media).
   * REST and MCP both read it before reading the body.
   */
  maxBodyBytes?: number;
  /**
   * A call may outlast a request (waiting on the owner's approval, a slow platform or model):
   * surfaces that can hand back a handle (MCP tasks) run it as one.
   */
  longRunning?: true;
  /**
   * An action only the owner takes, in person, on their own pages (settling an unconfirmed
   * post, deciding an approval, the composer's save-and-publish): listed in `ownerOperations`,
   * never in the API's registry, and refused by execute() to any other caller.
   */
  inPersonOnly?: true;
  input: I;
  output: O;
  run: (ctx: Ctx, input: z.output<I>) => Promise<z.input<O>>;
};

/** Whether the owner's publishing switch gates every call of this operation. */
export const needsPublishingSwitch = (op: Pick<Operation, "permission" | "requires">) =>
  op.permission === "content:publish" || (op.requires ?? []).includes("publishing");

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
