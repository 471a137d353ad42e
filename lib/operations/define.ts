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
  confirmation: boolean;
  hints: Hints;
  input: I;
  output: O;
  run: (ctx: Ctx, input: z.output<I>) => Promise<z.input<O>>;
};

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
