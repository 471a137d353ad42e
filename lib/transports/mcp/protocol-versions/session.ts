import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/transports/auth/secret";
import type { Caller } from "@/lib/domain/context";

// MCP sessions carry what the server must remember between requests (the client's
// elicitation modes, and the session's own random id that elicitations are bound to) inside
// a signed, expiring Mcp-Session-Id, so the server keeps no
// per-client memory (nothing for a flood of clients to exhaust) and any server process with
// the same secret can serve any request.
const SESSION_TTL_MS = 24 * 3600 * 1000;

/** `id` is empty for a request outside any session (no elicitation is ever sent there). */
export type McpSession = { id: string; form: boolean; url: boolean };

export const NO_SESSION: McpSession = { id: "", form: false, url: false };

/**
 * The elicitation modes an initialize request declares. Since 2025-11-25 a client names
 * them (`form`, `url`); an empty `elicitation` object (earlier versions) means forms only.
 */
export function declaredModes(elicitation: unknown): Pick<McpSession, "form" | "url"> {
  if (!elicitation || typeof elicitation !== "object") return { form: false, url: false };
  const e = elicitation as Record<string, unknown>;
  if (!("form" in e) && !("url" in e)) return { form: true, url: false };
  return { form: Boolean(e.form), url: Boolean(e.url) };
}

const sign = (payload: string) => createHmac("sha256", authSecret()).update(`mcp-session:${payload}`).digest("base64url");

/** A new session of this caller with these modes: its signed id, and the session itself. */
export function createSession(caller: Caller, modes: Pick<McpSession, "form" | "url">, now = Date.now()): { header: string; session: McpSession } {
  const n = randomBytes(12).toString("base64url");
  const payload = Buffer.from(
    JSON.stringify({ u: caller.userId, a: caller.appId, f: modes.form ? 1 : 0, l: modes.url ? 1 : 0, x: now + SESSION_TTL_MS, n }),
  ).toString("base64url");
  return { header: `${payload}.${sign(payload)}`, session: { id: n, ...modes } };
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
    if (s.u !== caller.userId || s.a !== caller.appId || typeof s.x !== "number" || s.x < now || typeof s.n !== "string") return null;
    return { id: s.n, form: s.f === 1, url: s.l === 1 };
  } catch {
    return null;
  }
}
