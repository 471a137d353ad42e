import { createMcpHandler } from "@modelcontextprotocol/server";
import type { Caller } from "@/lib/domain/context";
import type { Prepaid } from "@/lib/operations/budget";
import { MAX_MCP_BODY_BYTES } from "../body-limit";
import { createMcpServer } from "../server";

type Extra = { caller: Caller; requestId: string; prepaid: Prepaid };

// Protocol 2026-07-28: the SDK's per-request handler (server/discover, the _meta envelope,
// the Mcp-Method / Mcp-Name header checks, cache fields, input_required). Modern only: 2025-era
// traffic never reaches it (see legacy.ts).
const handler = createMcpHandler(
  ({ authInfo }) => {
    const { caller, requestId, prepaid } = authInfo!.extra as Extra;
    return createMcpServer({ caller, requestId, era: "modern", prepaid });
  },
  { legacy: "reject", maxRequestBodySize: MAX_MCP_BODY_BYTES },
);

/** Serves one 2026-07-28 request of this already authenticated caller. */
export function serveModern(req: Request, body: unknown, caller: Caller, requestId: string, prepaid: Prepaid): Promise<Response> {
  const authInfo = { token: "", clientId: caller.appId, scopes: caller.scopes, extra: { caller, requestId, prepaid } satisfies Extra };
  return handler.fetch(req, { authInfo, parsedBody: body });
}
