import fs from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";

// X's official OpenAPI document, as the fake of X enforces it: which paths and methods exist,
// which OAuth 2.0 scopes each operation's `security` names, and what its query, JSON and
// multipart bodies may hold. Read from ../shared/reference (or X_OPENAPI_PATH), never copied
// into the repository; absent (a clone used elsewhere), the checks that need it are skipped.

export const X_OPENAPI_PATH = process.env.X_OPENAPI_PATH || path.resolve(process.cwd(), "..", "shared", "reference", "x-api-v2-openapi.json");

type Schema = Record<string, unknown>;
type Param = { name: string; in: string; required?: boolean; schema?: Schema; explode?: boolean; $ref?: string };
type Operation = {
  operationId: string;
  parameters?: Param[];
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

export type XOperation = {
  id: string;
  method: string;
  template: string;
  /** The OAuth 2.0 user-token scopes the operation needs; null: a user token cannot call it. */
  scopes: string[] | null;
  op: Operation;
  pointer: string;
};

export type XRequest = { query: URLSearchParams; contentType: string; body: Buffer };

const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export class XContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  private readonly ops: (XOperation & { pattern: RegExp; literal: number })[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: { paths: Record<string, Record<string, Operation>>; components: Schema }) {
    this.ajv.addSchema(doc as unknown as Schema, "x");
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!op?.operationId) continue;
        const user = op.security?.find((s) => "OAuth2UserToken" in s);
        this.ops.push({
          id: op.operationId,
          method: method.toUpperCase(),
          template,
          scopes: user ? user.OAuth2UserToken : null,
          op,
          pointer: `#/paths/${escapePointer(template)}/${method}`,
          pattern: new RegExp(`^${template.replace(/\{[^/]+\}/g, "([^/]+)")}$`),
          literal: template.split("/").filter((s) => s && !s.startsWith("{")).length,
        });
      }
    }
    // A literal path wins over a template that also matches it (/2/media/upload, not /2/media/{media_key}).
    this.ops.sort((a, b) => b.literal - a.literal);
  }

  /** The operation a request names, with its path parameters, or null: X answers 404. */
  find(method: string, pathname: string): { op: XOperation; pathParams: Record<string, string> } | null {
    for (const o of this.ops) {
      if (o.method !== method) continue;
      const m = o.pattern.exec(pathname);
      if (!m) continue;
      const names = [...o.template.matchAll(/\{([^/]+)\}/g)].map((x) => x[1]);
      return { op: o, pathParams: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
    }
    return null;
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (!v) this.compiled.set(pointer, (v = this.ajv.compile({ $ref: `x${pointer}` })));
    return v;
  }

  private check(pointer: string, value: unknown, what: string): string[] {
    const v = this.validator(pointer);
    return v(value) ? [] : (v.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
  }

  private resolveParam(p: Param): Param {
    if (!p.$ref) return p;
    const name = p.$ref.replace("#/components/parameters/", "");
    return (this.doc.components.parameters as Record<string, Param>)[name];
  }

  /** Everything in the request that the operation does not allow; [] when it conforms. */
  async requestProblems(found: { op: XOperation; pathParams: Record<string, string> }, req: XRequest): Promise<string[]> {
    const { op, pointer } = found.op;
    const problems: string[] = [];
    const params = (op.parameters ?? []).map((p) => this.resolveParam(p));
    const known = new Set(params.filter((p) => p.in === "query").map((p) => p.name));
    const query = withFieldAlias(req.query, known);
    for (const name of new Set(query.keys())) if (!known.has(name)) problems.push(`query parameter ${name} is not defined`);
    params.forEach((p, i) => {
      const raw = p.in === "query" ? query.get(p.name) : p.in === "path" ? found.pathParams[p.name] : undefined;
      if (p.in !== "query" && p.in !== "path") return;
      if (raw === null || raw === undefined) {
        if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
        return;
      }
      const at = op.parameters![i].$ref ? `#/components/parameters/${op.parameters![i].$ref!.split("/").pop()}/schema` : `${pointer}/parameters/${i}/schema`;
      problems.push(...this.check(at, coerce(raw, p.schema ?? {}, this.doc), `${p.in} parameter ${p.name}`));
    });
    const body = op.requestBody;
    if (!body) {
      if (req.body.length) problems.push("the operation takes no body");
      return problems;
    }
    if (!req.body.length) {
      if (body.required) problems.push("a body is required");
      return problems;
    }
    const type = req.contentType.split(";")[0].trim().toLowerCase();
    if (!body.content[type]) return [...problems, `content-type ${type || "(none)"} is not one of ${Object.keys(body.content).join(", ")}`];
    const schemaAt = `${pointer}/requestBody/content/${escapePointer(type)}/schema`;
    let value: unknown;
    if (type === "application/json") {
      try {
        value = JSON.parse(req.body.toString("utf8"));
      } catch {
        return [...problems, "the body is not JSON"];
      }
    } else if (type === "multipart/form-data") {
      value = await multipartObject(req, body.content[type].schema, this.doc);
      if (value === null) return [...problems, "the body is not multipart/form-data"];
    }
    return [...problems, ...this.check(schemaAt, value, "body")];
  }

  /** Whether a response the fake sends matches the document (keeps the fake honest). */
  responseProblems(op: XOperation, status: number, body: unknown): string[] {
    const content = op.op.responses[String(status)]?.content?.["application/json"];
    if (!content) return [];
    return this.check(`${op.pointer}/responses/${status}/content/application~1json/schema`, body, `response ${status}`);
  }
}

/**
 * The document's shared parameter for a post's fields is named `post.fields`, while X's field
 * guide (docs.x.com/x-api/fundamentals/fields), its lookup quickstart (GET /2/tweets/{id}) and
 * the document's own inline parameters elsewhere name it `tweet.fields`: both are taken, as
 * the same parameter, where the document defines `post.fields`.
 */
function withFieldAlias(query: URLSearchParams, known: Set<string>): URLSearchParams {
  if (!known.has("post.fields") || known.has("tweet.fields") || !query.has("tweet.fields")) return query;
  const q = new URLSearchParams(query);
  q.set("post.fields", q.get("tweet.fields")!);
  q.delete("tweet.fields");
  return q;
}

/** Follows one level of local $ref (enough for the schemas of bodies and parameters). */
function deref(schema: Schema, doc: { components: Schema }): Schema {
  const ref = schema.$ref as string | undefined;
  if (!ref?.startsWith("#/components/schemas/")) return schema;
  return (doc.components.schemas as Record<string, Schema>)[ref.split("/").pop()!];
}

/** A query or form value as the schema's type reads it (an integer from its digits, a comma list). */
function coerce(raw: string, schema: Schema, doc: { components: Schema }): unknown {
  const s = deref(schema, doc);
  if (s.type === "integer" || s.type === "number") return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (s.type === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  if (s.type === "array") return raw.split(",");
  return raw;
}

/** A multipart body as an object: files become strings (the schema's `format: binary`). */
async function multipartObject(req: XRequest, schema: Schema, doc: { components: Schema }): Promise<Record<string, unknown> | null> {
  let form: FormData;
  try {
    form = await new Request("http://x.invalid/", { method: "POST", headers: { "content-type": req.contentType }, body: new Uint8Array(req.body) }).formData();
  } catch {
    return null;
  }
  const props = (deref(schema, doc).properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) out[k] = typeof v === "string" ? coerce(v, props[k] ?? {}, doc) : "(bytes)";
  return out;
}

let loaded: XContract | null | undefined;

/** X's document, read once per process; null when it is not on this machine. */
export function xContract(): XContract | null {
  if (loaded !== undefined) return loaded;
  try {
    loaded = new XContract(JSON.parse(fs.readFileSync(X_OPENAPI_PATH, "utf8")));
  } catch {
    loaded = null;
  }
  return loaded;
}
