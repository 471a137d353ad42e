import type { CallToolResult } from "@modelcontextprotocol/server";
import { presentError } from "@/lib/core/errors/present";

/** Refusals are tool results with the same error body as REST (presentError), never protocol errors. */
export function errorResult(e: unknown, requestId: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(presentError(e, requestId).body) }] };
}

/** A result as text (for clients that read only content) and as structuredContent (for the output schema). */
export const okResult = (result: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(result) }],
  structuredContent: result as Record<string, unknown>,
});
