import { config } from "@/lib/core/config";
import { OAuthError } from "./errors";

export const SCOPES = ["email", "profile", "offline_access"] as const;
export const ACCESS_TTL_SECONDS = 3600;
export const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
export const CODE_TTL_MS = 10 * 60 * 1000;
/** A rotated refresh token stays usable this long: concurrent refreshes are normal. */
export const REFRESH_GRACE_MS = 60 * 1000;

/** Requested scopes, "email" always included (the scope every operation requires). */
export function parseScopes(value: string | null | undefined): string[] | null {
  const asked = (value ?? "").split(" ").filter(Boolean);
  if (asked.some((s) => !(SCOPES as readonly string[]).includes(s))) return null;
  return [...new Set(["email", ...asked])];
}

const trimSlash = (s: string) => s.replace(/\/+$/, "");

/** RFC 8707 resources: the REST base URL and/or the MCP URL; none given means both. */
export function parseResources(values: string[]): string[] {
  const { baseUrl, mcpUrl } = config();
  if (values.length === 0) return [baseUrl, mcpUrl];
  const known = new Map([
    [baseUrl, baseUrl],
    [mcpUrl, mcpUrl],
  ]);
  const out = values.map((v) => known.get(trimSlash(v)));
  if (out.some((v) => !v)) {
    throw new OAuthError("invalid_target", `resource must be ${baseUrl} or ${mcpUrl}.`);
  }
  return [...new Set(out as string[])];
}
