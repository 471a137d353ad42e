import { MAX_BODY_BYTES } from "@/lib/transports/http/body";
import { findOperation, operations } from "@/lib/operations/registry";

// MCP's request body cap. The body must be read before the tool it calls is known, so it is
// read up to the largest cap any operation allows (upload_media), and a body over the
// default 256 KiB is then accepted only when it is nothing but calls of such a tool: every
// other message keeps the small cap, as on REST.

/** The most any MCP POST may carry. */
export const MAX_MCP_BODY_BYTES = Math.max(MAX_BODY_BYTES, ...operations.map((op) => op.maxBodyBytes ?? 0));

type Message = { method?: string; params?: { name?: unknown } };

/** The cap that applies to these messages: the smallest any of them allows. */
export function bodyLimitOf(messages: Message[]): number {
  let limit = Infinity;
  for (const m of messages) {
    const op = m?.method === "tools/call" && typeof m.params?.name === "string" ? findOperation(m.params.name) : undefined;
    limit = Math.min(limit, op?.maxBodyBytes ?? MAX_BODY_BYTES);
  }
  return Number.isFinite(limit) ? limit : MAX_BODY_BYTES;
}
