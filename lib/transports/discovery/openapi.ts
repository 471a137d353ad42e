import { z } from "zod";
import { config } from "@/lib/core/config";
import { ERROR_CODES, ERROR_STATUS } from "@/lib/core/errors";
import { needsPublishingSwitch } from "@/lib/operations/define";
import { operations } from "@/lib/operations/registry";
import { EVENT_DATA, EVENT_DOCS, envelopeSchema, type EventType } from "@/lib/domain/webhooks/events";
import { ERROR_DOCS } from "./error-docs";

type JsonSchema = Record<string, unknown>;

/** zod to JSON Schema 2020-12 (OpenAPI 3.1's dialect), without the per-document $schema. */
function schemaOf(s: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const ErrorResponse = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    hint: z.string().optional(),
    docs: z.string(),
    details: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
    confirmation: z
      .strictObject({
        id: z.string(),
        url: z.string(),
        expires_at: z.string(),
        action: z.strictObject({
          operation: z.string(),
          type: z.string(),
          id: z.string(),
          title: z.string(),
          scheduled_for: z.string().nullable(),
        }),
        plan: z.strictObject({ id: z.string(), label: z.string(), url: z.string() }).optional(),
      })
      .optional(),
  }),
});

const ERROR_STATUSES = [...new Set(Object.values(ERROR_STATUS))].filter((s) => s !== 404 && s !== 405);

/** The OpenAPI 3.1 document, generated from the schemas that validate requests. */
export function openApiDocument() {
  const { baseUrl } = config();
  const schemas: Record<string, JsonSchema> = { Error: schemaOf(ErrorResponse, "output") };
  const paths: Record<string, unknown> = {};
  for (const op of operations) {
    schemas[`${op.name}_request`] = schemaOf(op.input, "input");
    schemas[`${op.name}_response`] = schemaOf(op.output, "output");
    const errors = Object.fromEntries(
      ERROR_STATUSES.map((status) => [
        String(status),
        {
          description: ERROR_CODES.filter((c) => ERROR_STATUS[c] === status).join(", "),
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      ]),
    );
    paths[`/${op.name}`] = {
      post: {
        operationId: op.name,
        summary: op.summary,
        description:
          `${op.description}\n\nPermission: ${op.permission}. ` +
          `Confirmation: ${op.confirmation ? "required" : op.confirmationWhen ? `required ${op.confirmationWhen}` : "no"}.`,
        tags: [op.hints.readOnly ? "read" : "write"],
        "x-permission": op.permission,
        "x-confirmation": op.confirmation,
        "x-publishing-switch": needsPublishingSwitch(op),
        ...(op.confirmationWhen && { "x-confirmation-when": op.confirmationWhen }),
        "x-hints": op.hints,
        parameters: op.hints.readOnly
          ? []
          : [
              {
                name: "Idempotency-Key",
                in: "header",
                required: false,
                schema: { type: "string", minLength: 1, maxLength: 255 },
                description: "Replays the first response for 24 h",
              },
            ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${op.name}_request` } } } },
        responses: {
          "200": { description: "Success", content: { "application/json": { schema: { $ref: `#/components/schemas/${op.name}_response` } } } },
          ...errors,
        },
      },
    };
  }
  // Webhooks (OpenAPI 3.1): what this service POSTs to the endpoints of manage_webhooks.
  const webhooks: Record<string, unknown> = {};
  for (const type of Object.keys(EVENT_DATA) as EventType[]) {
    const name = `webhook_${type.replace(".", "_")}`;
    schemas[name] = schemaOf(envelopeSchema(type), "output");
    webhooks[type] = {
      post: {
        summary: type,
        description:
          `${EVENT_DOCS[type]}\n\nSigned per Standard Webhooks: verify webhook-signature (HMAC-SHA256 of ` +
          `"{webhook-id}.{webhook-timestamp}.{body}" with the endpoint's whsec_ secret; during a rotation two space-separated v1 signatures) ` +
          `and de-duplicate on webhook-id. Answer 2xx within 10 s; anything else is retried with backoff for 3 days.`,
        parameters: [
          { name: "webhook-id", in: "header", required: true, schema: { type: "string" }, description: "The event's id: the same on every retry" },
          { name: "webhook-timestamp", in: "header", required: true, schema: { type: "string" }, description: "Unix seconds of this attempt" },
          { name: "webhook-signature", in: "header", required: true, schema: { type: "string" }, description: "Space-separated v1,<base64> signatures" },
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } },
        responses: { "2XX": { description: "Received; any other answer (or none within 10 s) is retried" } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Content drafting, scheduling and publishing API",
      version: "v1",
      description:
        "Acts as the signed-in user on their professional-network (pronet) and microblog (micro) content. Errors: " +
        ERROR_CODES.map((c) => `${c} (${ERROR_STATUS[c]}): ${ERROR_DOCS[c].when}`).join(" "),
    },
    servers: [{ url: baseUrl }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "read", description: "Read-only operations" },
      { name: "write", description: "Operations that change something" },
    ],
    paths,
    webhooks,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "OAuth 2.1 access token (authorization code + PKCE) or one from `npm run admin -- issue-token`.",
        },
      },
    },
  };
}
