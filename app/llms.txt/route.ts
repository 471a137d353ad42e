import { llmsTxt } from "@/lib/transports/discovery/llms";

export const GET = () => new Response(llmsTxt(), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
