import { config } from "@/lib/config";
import { notFoundResponse } from "@/lib/http/operation";

export const dynamic = "force-dynamic";

// Mounted only when Inngest is configured (INNGEST_EVENT_KEY / INNGEST_DEV); otherwise this
// address is like any unknown API address (404), since Inngest's handler would answer 500.
type Handler = (req: Request, ctx: unknown) => Promise<Response>;
let handlers: Promise<Record<"GET" | "POST" | "PUT", Handler>> | undefined;

async function load() {
  const [{ serve }, { inngest }, { functions }] = await Promise.all([import("inngest/next"), import("@/inngest/client"), import("@/inngest/functions")]);
  return serve({ client: inngest(), functions }) as unknown as Record<"GET" | "POST" | "PUT", Handler>;
}

const route = (method: "GET" | "POST" | "PUT") => async (req: Request, ctx: unknown) => {
  const c = config();
  if (!c.inngest) return notFoundResponse();
  handlers ??= load();
  return (await handlers)[method](req, ctx);
};

export const GET = route("GET");
export const POST = route("POST");
export const PUT = route("PUT");
