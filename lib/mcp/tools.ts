import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { operations } from "@/lib/operations/registry";

type ObjectSchema = Tool["inputSchema"];

function jsonSchema(s: z.ZodType, io: "input" | "output"): ObjectSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;
  // MCP wants an object schema at the top; a union of objects (e.g. manage_series' actions)
  // stays a union underneath.
  return { ...rest, type: "object" } as ObjectSchema;
}

let cached: Tool[] | undefined;

/** Every operation as an MCP tool: a loop over the registry, computed once per process. */
export function toolList(): Tool[] {
  cached ??= operations.map((op) => ({
    name: op.name,
    title: op.title,
    description: op.confirmation
      ? `${op.description} The user confirms this exact action: through a form in this client when it supports elicitation, otherwise by opening the link in the confirmation_required result; then call again with the same arguments.`
      : op.description,
    inputSchema: jsonSchema(op.input, "input"),
    outputSchema: jsonSchema(op.output, "output"),
    annotations: {
      title: op.title,
      readOnlyHint: op.hints.readOnly,
      destructiveHint: op.hints.destructive,
      idempotentHint: op.hints.idempotent,
      openWorldHint: op.hints.openWorld,
    },
  }));
  return cached;
}
