import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { NETWORKS } from "@/lib/domain/networks";
import { composeOffline } from "./composer";
import { readBlock, type Brief, type Voice } from "./prompts";

/** The offline composer as an ai SDK language model (its LanguageModelV3 interface, which ai@6 expects). */
export function offlineModel(): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "contentio",
    modelId: "offline-voice-composer",
    supportedUrls: {},
    async doGenerate(options: LanguageModelV3CallOptions) {
      // The last user message carries the data blocks that buildPrompt wrote.
      const user = options.prompt.filter((m) => m.role === "user").pop();
      const text = user ? user.content.map((p) => (p.type === "text" ? p.text : "")).join("\n") : "";
      const brief: Brief = {
        format: readBlock<"post" | "tweet">(text, "format") ?? "post",
        voice: readBlock<{ summary: string | null; tone: string[]; niche: string | null; traits: string[]; sample_posts: string[] }>(
          text,
          "voice_profile",
        ) as never,
        topic: readBlock<string>(text, "topic"),
        sourcePost: readBlock<string>(text, "source_post"),
        instructions: readBlock<string>(text, "instructions"),
        pillar: readBlock<string>(text, "pillar"),
        parts: readBlock<number>(text, "parts"),
        edit: readBlock<"shorten" | "rewrite">(text, "edit"),
        network: NETWORKS.find((n) => n.id === readBlock<string>(text, "network")),
      };
      const raw = (brief.voice ?? {}) as unknown as Record<string, unknown>;
      brief.voice = {
        summary: (raw.summary as string) ?? null,
        tone: (raw.tone as string[]) ?? [],
        niche: (raw.niche as string) ?? null,
        traits: (raw.traits as string[]) ?? [],
        samplePosts: (raw.sample_posts as string[]) ?? [],
        bestPosts: (raw.best_performing_posts as string[]) ?? [],
      } satisfies Voice;
      const out = composeOffline(brief);
      return {
        content: [{ type: "text", text: out }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: Math.ceil(text.length / 4), noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: Math.ceil(out.length / 4), text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
    async doStream() {
      throw new Error("The offline composer does not stream.");
    },
  };
}
