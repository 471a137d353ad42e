import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { z } from "zod";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { createUser, issueCommandLineToken } from "@/lib/domain/owner/users";
import { handleOperation } from "@/lib/transports/http/operation";
import { openApiDocument } from "@/lib/transports/discovery/openapi";
import type { Plan } from "@/drizzle/schema";

export type Called = { status: number; headers: Headers; body: any };

/** Calls `{base_url}/{operation}` through the real route handler, as an HTTP client would. */
export async function call(
  operation: string,
  body: unknown,
  opts: { token?: string | null; method?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<Called> {
  const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const method = opts.method ?? "POST";
  const req = new Request(`${config().baseUrl}/${operation}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : (opts.raw ?? JSON.stringify(body)),
  });
  const res = await handleOperation(req, operation);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export type TestUser = { id: string; email: string; token: string; appId: string };

/** A user with a token, as `npm run admin` makes them. */
export async function makeUser(opts: { plan?: Plan; complete?: boolean; publishing?: boolean } = {}): Promise<TestUser> {
  const d = await db();
  const email = `u${randomBytes(6).toString("hex")}@example.test`;
  const user = await createUser(d, {
    email,
    password: "correct horse battery staple",
    plan: opts.plan ?? "creator",
    complete: opts.complete ?? true,
    publishingAllowed: opts.publishing ?? false,
  });
  const t = await issueCommandLineToken(d, { email, audience: [config().baseUrl, config().mcpUrl] });
  return { id: user.id, email, token: t.access_token, appId: t.app_id };
}

/** Every error must have exactly the error shape (docs/interface.md, Errors) and link to its docs. */
export function expectError(res: Called, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.error.docs).toBe(`${config().origin}/docs/errors#${code}`);
  const allowed = ["code", "message", "hint", "docs", "details", "confirmation"];
  expect(Object.keys(res.body.error).every((k) => allowed.includes(k))).toBe(true);
  expect(Object.keys(res.body)).toEqual(["error"]);
  if (code === "invalid_request") {
    expect(res.body.error.details.length).toBeGreaterThan(0);
    for (const d of res.body.error.details) expect(Object.keys(d).sort()).toEqual(["message", "path"]);
  }
}

/** Success bodies must match the operation's response schema exactly (no extra keys). */
export function expectOk(res: Called, schema: z.ZodType) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const parsed = schema.safeParse(res.body);
  expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
  return res.body;
}

export const openapi = () => openApiDocument();
