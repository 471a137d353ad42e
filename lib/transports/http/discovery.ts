import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { config } from "@/lib/core/config";
import { presentError } from "@/lib/core/errors/present";

/** 405 in the API's error shape for discovery documents, which answer only `allow`. */
export function methodNotAllowed(allow: string) {
  return () => {
    const requestId = randomUUID();
    const error = new AppError("method_not_allowed", `This address answers only ${allow}.`, `Operations are POST ${config().baseUrl}/{operation}.`);
    const answer = presentError(error, requestId);
    return Response.json(answer.body, { status: answer.status, headers: { Allow: allow, "X-Request-Id": requestId } });
  };
}

// Well-known documents are public and read from browsers: CORS for GET and preflight.
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version",
  "Access-Control-Max-Age": "86400",
};

/** Protected-resource metadata (RFC 9728) for a resource URL. */
export function protectedResource(resource: string) {
  const body = {
    resource,
    authorization_servers: [config().origin],
    bearer_methods_supported: ["header"],
    scopes_supported: ["email", "profile"],
    resource_name: "Content drafting, scheduling and publishing",
    resource_documentation: `${config().origin}/llms.txt`,
  };
  return {
    GET: () => Response.json(body, { headers: { ...CORS, "Cache-Control": "public, max-age=300" } }),
    OPTIONS: () => new Response(null, { status: 204, headers: CORS }),
  };
}
