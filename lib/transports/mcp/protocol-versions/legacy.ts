import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { db } from "@/lib/adapters/db";
import type { Caller } from "@/lib/domain/context";
import type { Prepaid } from "@/lib/operations/budget";
import { isResponseBatch, recordAnswers, recordCancellations } from "../approvals/elicitation";
import { createMcpServer } from "../server";
import { createSession, declaredModes, NO_SESSION, readSessionId, type McpSession } from "./session";

type Message = { id?: unknown; method?: string; params?: { capabilities?: { elicitation?: unknown } } };

export type LegacyAnswer = { response: Response; sessionHeader?: string };

/**
 * A 2025-era request (2025-03-26, 2025-06-18, 2025-11-25). The SDK's stateless legacy serving
 * cannot carry our confirmation: the client answers a pushed elicitation in a separate POST,
 * which may reach another process. So this leg is the SDK's documented hand-wired legacy
 * route (isLegacyRequest in front of the modern handler) around the same server factory:
 * what must outlive a request (the client's elicitation modes) travels in a signed
 * Mcp-Session-Id, and elicitation answers are stored, so any process can serve any request.
 */
export async function serveLegacy(
  req: Request,
  body: unknown,
  caller: Caller,
  requestId: string,
  prepaid: Prepaid,
): Promise<LegacyAnswer | { error: "unknown_session" }> {
  const messages = (Array.isArray(body) ? body : [body]) as Message[];
  const init = messages.find((m) => m?.method === "initialize");
  let session: McpSession = NO_SESSION;
  let sessionHeader: string | undefined;
  if (init) {
    ({ header: sessionHeader, session } = createSession(caller, declaredModes(init.params?.capabilities?.elicitation)));
  } else if (req.headers.get("mcp-session-id")) {
    const known = readSessionId(req.headers.get("mcp-session-id")!, caller);
    if (!known) return { error: "unknown_session" };
    session = known;
  }
  if (isResponseBatch(body)) {
    await recordAnswers(await db(), body, caller, session);
    return { response: new Response(null, { status: 202 }) };
  }
  await recordCancellations(await db(), body, caller, session);
  // Server-sent events only where a tool call may need to ask the user mid-call.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !session.form && !session.url });
  const server = createMcpServer({ caller, requestId, era: "legacy", legacy: { session, transport, signal: req.signal }, prepaid });
  await server.connect(transport);
  return { response: await transport.handleRequest(req, { parsedBody: body }), sessionHeader };
}
