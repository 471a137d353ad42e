import { config, type Config } from "@/lib/core/config";
import { notFoundResponse } from "@/lib/transports/http/operation";

export const dynamic = "force-dynamic";

// Mounted only when Inngest is configured (INNGEST_EVENT_KEY / INNGEST_DEV); otherwise this
// address is like any unknown API address (404), since Inngest's handler would answer 500.
type Handler = (req: Request, ctx: unknown) => Promise<Response>;
type Handlers = Record<"GET" | "POST" | "PUT", Handler>;
let loaded: { c: Config; handlers: Promise<Handlers> } | undefined;

// The address Inngest is told to call is this service's own (APP_URL), never one taken from
// the request: a sync (PUT) needs no signature, and with the SDK's default, reading the Host
// header, anyone could have pointed every scheduled post's run at a server of their own.
async function load(c: Config): Promise<Handlers> {
  const [{ serve }, { inngest }, { functions }] = await Promise.all([
    import("inngest/next"),
    import("@/lib/adapters/inngest/client"),
    import("@/lib/adapters/inngest/functions"),
  ]);
  return serve({ client: inngest(), functions, serveOrigin: new URL(c.origin).origin, servePath: "/api/inngest" }) as unknown as Handlers;
}

const route = (method: "GET" | "POST" | "PUT") => async (req: Request, ctx: unknown) => {
  const c = config();
  if (!c.inngest) return notFoundResponse();
  if (loaded?.c !== c) loaded = { c, handlers: load(c) }; // tests change the configuration
  return (await loaded.handlers)[method](req, ctx);
};

export const GET = route("GET");
export const POST = route("POST");
export const PUT = route("PUT");
