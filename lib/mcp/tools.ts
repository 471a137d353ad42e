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
      ? `${op.description} The account owner approves this exact action on the service's approval page: a client with URL-mode elicitation is sent the page and the call waits for the decision; otherwise the confirmation_required result carries the link, and after the owner approved, call again with the same arguments.`
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
