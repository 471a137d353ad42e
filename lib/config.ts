import { z } from "zod";

// Every environment variable the service reads, parsed once. The README's table mirrors this.
const Env = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  REDIS_URL: z.string().min(1).optional(),
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  OWNER_EMAIL: z.email().default("owner@example.com"),
  // Extra browser origins allowed to call the MCP server (comma-separated).
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((o) => o.trim()).filter(Boolean)),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Config = z.infer<typeof Env> & { origin: string; baseUrl: string; mcpUrl: string };

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const origin = (parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, "");
  cached = { ...parsed.data, origin, baseUrl: `${origin}/api/v1`, mcpUrl: `${origin}/mcp` };
  return cached;
}

/** Tests change the environment between files; this forgets the parsed copy. */
export function resetConfig() {
  cached = undefined;
}
