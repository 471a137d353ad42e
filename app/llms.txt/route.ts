import { llmsTxt } from "@/lib/discovery/llms";

export const GET = () => new Response(llmsTxt(), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
