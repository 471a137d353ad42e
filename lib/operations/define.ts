import type { z } from "zod";
import type { Ctx, Permission } from "@/lib/domain/context";

export type Hints = { readOnly: boolean; destructive: boolean; idempotent: boolean; openWorld: boolean };

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
  /** Whether every call needs the owner's approval of its exact action. */
  confirmation: boolean;
  /**
   * When only some calls need that approval: the condition, completing "needs the owner's
   * approval ..." (discovery keeps `confirmation` a boolean, so this is said in words).
   */
  confirmationWhen?: string;
  hints: Hints;
  input: I;
  output: O;
  run: (ctx: Ctx, input: z.output<I>) => Promise<z.input<O>>;
};

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
