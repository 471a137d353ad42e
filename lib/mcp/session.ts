import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import type { Caller } from "@/lib/domain/context";

// MCP sessions carry what the server must remember between requests (the client's
// elicitation capability) inside a signed, expiring Mcp-Session-Id, so the server keeps no
// per-client memory (nothing for a flood of clients to exhaust) and any server process with
// the same secret can serve any request.
const SESSION_TTL_MS = 24 * 3600 * 1000;

export type McpSession = { elicitation: boolean };

const sign = (payload: string) => createHmac("sha256", authSecret()).update(`mcp-session:${payload}`).digest("base64url");

export function createSessionId(caller: Caller, session: McpSession, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({ u: caller.userId, a: caller.appId, e: session.elicitation ? 1 : 0, x: now + SESSION_TTL_MS, n: randomBytes(6).toString("base64url") }),
  ).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

/** The session of this caller, or null when it is unknown, forged, expired or another app's. */
export function readSessionId(id: string, caller: Caller, now = Date.now()): McpSession | null {
  const [payload, mac] = id.split(".");
  if (!payload || !mac || id.length > 500) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const s = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (s.u !== caller.userId || s.a !== caller.appId || typeof s.x !== "number" || s.x < now) return null;
    return { elicitation: s.e === 1 };
  } catch {
    return null;
  }
}
