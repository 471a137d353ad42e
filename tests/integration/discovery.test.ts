import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020Module from "ajv/dist/2020";
import addFormatsModule from "ajv-formats";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import * as list from "@/app/api/v1/route";
import * as openapiRoute from "@/app/api/v1/openapi.json/route";
import * as llms from "@/app/llms.txt/route";
import * as prRoot from "@/app/.well-known/oauth-protected-resource/route";
import * as prApi from "@/app/.well-known/oauth-protected-resource/api/v1/route";
import * as prMcp from "@/app/.well-known/oauth-protected-resource/mcp/route";
import ErrorReference from "@/app/docs/errors/page";
import { operations } from "@/lib/operations/registry";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

const ORIGIN = "http://localhost:3000"; // APP_URL in vitest.config.ts
const BASE = `${ORIGIN}/api/v1`;

// The Operations table of docs/interface.md:
// [summary, permission, confirmation, read_only, destructive, idempotent, open_world]
type Row = [string, string, boolean, boolean, boolean, boolean, boolean];
const EXPECTED: Record<string, Row> = {
  search_content: ["Search posts, tweets, articles, ideas, series", "content:read", false, true, false, true, false],
  fetch_item: ["Open one item in full", "content:read", false, true, false, true, false],
  list_scheduled: ["List what is scheduled in a date range", "content:read", false, true, false, true, false],
  get_profile_context: ["Read voice, niche, traits, connected accounts", "content:read", false, true, false, true, false],
  get_analytics: ["Numeric summary of own activity", "analytics:read", false, true, false, true, false],
  get_post_metrics: ["Engagement of published posts", "analytics:read", false, true, false, true, false],
  generate_post: ["Write a professional-network post draft", "content:write", false, false, false, false, false],
  generate_tweet: ["Write a tweet draft", "content:write", false, false, false, false, false],
  create_draft: ["Save a draft", "content:write", false, false, false, false, false],
  update_draft: ["Edit a draft", "content:write", false, false, false, true, false],
  delete_draft: ["Delete a draft", "content:write", true, false, true, true, false],
  schedule_content: ["Schedule a draft", "content:publish", true, false, true, true, true],
  unschedule_content: ["Take a draft off the schedule", "content:write", false, false, false, true, false],
  publish_now: ["Publish a draft immediately", "content:publish", true, false, true, false, true],
  list_series: ["List series and progress", "content:read", false, true, false, true, false],
  manage_series: ["Create or update a series and its topics", "content:write", false, false, false, false, false],
  // Added to v1 (docs/interface.md, Versioning: operations may be added).
  upload_media: ["Upload an image or PDF", "content:write", false, false, false, false, false],
  list_webhooks: ["List webhook endpoints", "content:write", false, true, false, true, false],
  manage_webhooks: ["Add, change, test or delete a webhook endpoint", "content:write", false, false, true, false, true],
  manage_queue: ["Read or set an account's posting queue", "content:write", false, false, false, true, false],
  preview_publish: ["Preview what publishing a draft would do", "content:read", false, true, false, true, false],
  import_drafts: ["Save up to 200 drafts at once, all or none", "content:write", false, false, false, false, false],
};

// The Errors table of docs/interface.md.
const ERROR_CODES = [
  "invalid_json",
  "invalid_request",
  "unauthorized",
  "plan_required",
  "account_incomplete",
  "publishing_not_allowed",
  "confirmation_required",
  "unknown_operation",
  "not_found",
  "method_not_allowed",
  "action_failed",
  "rate_limited",
  "internal_error",
  "temporarily_unavailable",
];

/**
 * The smallest body the document allows: required fields only, first enum value, minimum
 * sizes; ids point at a real draft so reads can succeed. oneOf/anyOf: the first branch.
 */
function sampleRequest(s: any, ctx: { uuid: string; origin: string }): unknown {
  const branch = (s.oneOf ?? s.anyOf)?.find((b: any) => b.type !== "null");
  if ("const" in s) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  if (!type && branch) return sampleRequest(branch, ctx);
  if (type === "object") {
    const props = { ...s.properties, ...branch?.properties };
    const required = [...(s.required ?? []), ...(branch?.required ?? [])];
    return Object.fromEntries(required.map((k: string) => [k, sampleRequest(props[k] ?? {}, ctx)]));
  }
  if (type === "array") return Array.from({ length: s.minItems ?? 0 }, () => sampleRequest(s.items ?? {}, ctx));
  if (type === "integer" || type === "number") return s.minimum ?? (s.exclusiveMinimum ?? 0) + 1;
  if (type === "boolean") return false;
  if (s.format === "uuid") return ctx.uuid;
  // A file's bytes: the smallest real one (a 2 x 2 PNG, the first content_type of the enum).
  if (s.contentEncoding === "base64")
    return "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWNg6DgDQhAKACIOBVEyhxYyAAAAAElFTkSuQmCC";
  if (s.format === "date-time") return new Date(Date.now() + 2 * 86_400_000).toISOString();
  if (s.format === "uri") return `${ctx.origin}/media/sample.png`;
  if (s.format === "email") return "someone@example.test";
  const text = "Sample text for a documented request";
  return text.padEnd(s.minLength ?? 1, ".").slice(0, s.maxLength ?? text.length);
}

const json = async (res: Response) => ({ status: res.status, headers: res.headers, body: await res.json() });

describe("GET {base_url}", () => {
  it("lists exactly the registry's operations in the shape docs/interface.md gives", async () => {
    const { status, body } = await json(await list.GET());
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["llms_txt_url", "mcp_url", "openapi_url", "operations", "version"]);
    expect(body).toMatchObject({ version: "v1", openapi_url: `${BASE}/openapi.json`, llms_txt_url: `${ORIGIN}/llms.txt`, mcp_url: `${ORIGIN}/mcp` });
    expect(body.operations.map((o: { name: string }) => o.name)).toEqual(operations.map((o) => o.name));
    for (const o of body.operations) {
      const row = EXPECTED[o.name];
      expect(row, `${o.name} is not in docs/interface.md's Operations table`).toBeDefined();
      const [summary, permission, confirmation, read_only, destructive, idempotent, open_world] = row;
      expect(o).toStrictEqual({
        name: o.name,
        method: "POST",
        path: `${BASE}/${o.name}`,
        summary,
        permission,
        confirmation,
        hints: { read_only, destructive, idempotent, open_world },
      });
    }
  });

  it("answers other methods with 405 method_not_allowed", async () => {
    const res = await list.POST();
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    const body = await res.json();
    expectError({ status: 405, headers: res.headers, body }, 405, "method_not_allowed");
  });
});

describe("GET {base_url}/openapi.json", () => {
  let doc: any;
  let user: TestUser;
  let postId: string;
  const ajv = new ((Ajv2020Module as any).default ?? Ajv2020Module)({ strict: false, allErrors: true });
  ((addFormatsModule as any).default ?? addFormatsModule)(ajv);
  const schema = (ref: string) => {
    const v = ajv.getSchema(`https://contentio.test/openapi.json${ref}`);
    if (!v) throw new Error(`cannot resolve ${ref}`);
    return v as ((data: unknown) => boolean) & { errors?: unknown; schema: unknown };
  };

  beforeAll(async () => {
    doc = (await json(await openapiRoute.GET())).body;
    ajv.addSchema({ $id: "https://contentio.test/openapi.json", components: doc.components });
    user = await makeUser({ publishing: true });
    postId = (await call("create_draft", { type: "post", body: "A draft the documented requests can point at" }, { token: user.token })).body.id;
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const res = await new Validator().validate(doc);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(doc.servers).toEqual([{ url: BASE }]);
  });

  it("documents every operation with its request, response, errors and bearer security", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(operations.map((o) => `/${o.name}`).sort());
    const schemes = Object.entries(doc.components.securitySchemes as Record<string, any>);
    const bearer = schemes.find(([, s]) => s.type === "http" && s.scheme === "bearer");
    expect(bearer).toBeDefined();
    expect(doc.security).toEqual([{ [bearer![0]]: [] }]);
    for (const op of operations) {
      const post = doc.paths[`/${op.name}`].post;
      expect(post.operationId).toBe(op.name);
      expect(post.requestBody.required).toBe(true);
      schema(post.requestBody.content["application/json"].schema.$ref);
      schema(post.responses["200"].content["application/json"].schema.$ref);
      for (const status of ["400", "401", "403", "422", "429", "500", "503"]) {
        expect(post.responses[status]?.content["application/json"].schema, `${op.name} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it("describes what the server does: a documented request gets a documented answer", async () => {
    for (const op of operations) {
      const post = doc.paths[`/${op.name}`].post;
      const requestRef = post.requestBody.content["application/json"].schema.$ref;
      const body = sampleRequest(schema(requestRef).schema as object, { uuid: postId, origin: ORIGIN }) as object;
      const validRequest = schema(requestRef);
      expect(validRequest(body), `${op.name} sample ${JSON.stringify(body)}: ${JSON.stringify(validRequest.errors)}`).toBe(true);
      const res = await call(op.name, body, { token: user.token });
      const label = `${op.name} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`;
      expect(Object.keys(post.responses), label).toContain(String(res.status));
      const check = schema(post.responses[String(res.status)].content["application/json"].schema.$ref);
      expect(check(res.body), `${label}: ${JSON.stringify(check.errors)}`).toBe(true);
      // A body the document calls valid must not be refused as invalid by the server.
      if (res.status === 400) expect(res.body.error.code, label).not.toBe("invalid_request");
    }
  });
});

describe("conditional confirmation", () => {
  it("every surface says that editing a scheduled draft's content needs the owner's approval", async () => {
    const doc = (await json(await openapiRoute.GET())).body;
    const post = doc.paths["/update_draft"].post;
    expect(post.description).toMatch(
      /Confirmation: required when it changes the title, text, images, document, thread, first comment or account of a scheduled draft\.$/,
    );
    expect(post["x-confirmation-when"]).toBe("when it changes the title, text, images, document, thread, first comment or account of a scheduled draft");
    expect(post.requestBody && doc.components.schemas.update_draft_request.properties.confirmation_id).toBeDefined();
    const text = await (await llms.GET()).text();
    expect(text).toContain(
      "- update_draft (content:write; changes data, needs the owner's approval when " +
        "it changes the title, text, images, document, thread, first comment or account of a scheduled draft)",
    );
    // Operations that always need it say so without a condition.
    expect(doc.paths["/publish_now"].post.description).toMatch(/Confirmation: required\.$/);
    expect(doc.paths["/fetch_item"].post.description).toMatch(/Confirmation: no\.$/);
  });
});

describe("the publishing switch", () => {
  it("is declared once per operation and shown by OpenAPI and llms.txt", async () => {
    const doc = (await json(await openapiRoute.GET())).body;
    const gated = Object.entries(doc.paths as Record<string, { post: Record<string, unknown> }>)
      .filter(([, p]) => p.post["x-publishing-switch"] === true)
      .map(([path]) => path.slice(1))
      .sort();
    expect(gated).toEqual(["delete_draft", "publish_now", "schedule_content"]);
    const text = await (await llms.GET()).text();
    expect(text).toContain("- delete_draft (content:write; changes data, destructive, needs the owner's publishing switch, needs the owner's approval)");
  });
});

describe("/llms.txt", () => {
  it("names every operation and every error code", async () => {
    const res = await llms.GET();
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const op of operations) expect(text).toContain(op.name);
    for (const code of ERROR_CODES) expect(text, code).toContain(code);
  });
});

describe("protected-resource metadata (RFC 9728)", () => {
  const cases = [
    ["/.well-known/oauth-protected-resource", prRoot, `${ORIGIN}/mcp`],
    ["/.well-known/oauth-protected-resource/api/v1", prApi, BASE],
    ["/.well-known/oauth-protected-resource/mcp", prMcp, `${ORIGIN}/mcp`],
  ] as const;
  it.each(cases)("%s names its resource, the issuer and no offline_access, with CORS", async (_path, route, resource) => {
    const { status, headers, body } = await json(await route.GET());
    expect(status).toBe(200);
    expect(body.resource).toBe(resource);
    expect(body.authorization_servers).toEqual([ORIGIN]);
    expect(body.scopes_supported).toContain("email");
    expect(body.scopes_supported).not.toContain("offline_access");
    expect(headers.get("access-control-allow-origin")).toBe("*");
    const pre = await route.OPTIONS();
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("GET");
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
});

describe("error documentation page", () => {
  it("has an anchor for every error code that error bodies link to", () => {
    const html = renderToStaticMarkup(createElement(ErrorReference));
    for (const code of ERROR_CODES) expect(html, code).toContain(`id="${code}"`);
  });
});
