import { serve } from "./http-server";

export type SentEvent = { name: string; id: string; data: Record<string, unknown> };

/** A fake Inngest event API on loopback: send() POSTs a JSON array of events to /e/{key}. */
export async function startFakeInngest() {
  const sent: SentEvent[] = [];
  const server = await serve(async (req) => {
    if (req.method !== "POST" || !new URL(req.url).pathname.startsWith("/e/")) return new Response(null, { status: 404 });
    const events = ([] as SentEvent[]).concat(await req.json());
    sent.push(...events);
    return Response.json({ ids: events.map((_, i) => `evt${i}`), status: 200 });
  });
  return { ...server, sent };
}
