import type { Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { operations } from "@/lib/operations/registry";
import { toolIcons } from "./icons";

type ObjectSchema = Tool["inputSchema"];

function jsonSchema(s: z.ZodType, io: "input" | "output"): ObjectSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;
  // MCP wants an object schema at the top; a union of objects (e.g. manage_series' actions)
  // stays a union underneath.
  return { ...rest, type: "object" } as ObjectSchema;
}

let cached: Tool[] | undefined;

/**
 * Every operation as an MCP tool: a loop over the registry, computed once per process, in the
 * registry's order (a deterministic list, as caching clients expect), identical on every
 * protocol version.
 */
export function toolList(): Tool[] {
  cached ??= operations.map((op) => ({
    name: op.name,
    title: op.title,
    description: op.confirmation
      ? `${op.description} The account owner approves this exact action on the service's approval page: a client ` +
        `with URL-mode elicitation is sent the page and the call completes after the decision; otherwise the ` +
        `confirmation_required result carries the link, and after the owner approved, call again with the same arguments.`
      : op.description,
    icons: toolIcons(op.hints),
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
