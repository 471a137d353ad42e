import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import type { Caller } from "@/lib/domain/context";
import { authenticate } from "@/lib/domain/apps/tokens";
import { Unauthorized } from "@/lib/core/errors";

const REASONS = {
  invalid: "The access token is not valid.",
  expired: "The access token has expired.",
  revoked: "The access token was revoked (the app was disconnected).",
  audience: "The access token was not issued for this API.",
} as const;

/** The token of an `Authorization: Bearer <token>` header, or null for any other form. */
export const bearerToken = (header: string): string | null => /^Bearer +([^\s]+) *$/i.exec(header)?.[1] ?? null;

/** The Authorization header's bearer token (never one from the query string) to its caller. */
export async function authenticateBearer(header: string | null, audience: string): Promise<Caller> {
  if (!header) throw new Unauthorized("This call needs an access token.", false);
  const token = bearerToken(header);
  if (!token) throw new Unauthorized("The Authorization header must be: Bearer <access token>.", true);
  const result = await authenticate(await db(), token, audience);
  if (!result.ok) throw new Unauthorized(REASONS[result.reason], true);
  return result.caller;
}
