import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

const answer = (text: string) => ({
  content: [{ type: "text" as const, text }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
  warnings: [],
});

/** A language model that always answers `text`: the model port writes with it in tests (`writer(() => fixedModel(text))`). */
export const fixedModel = (text: string) => new MockLanguageModelV3({ doGenerate: async () => answer(text) });

/** What a model was asked: the system text and the user message. */
export type Asked = { system: string; prompt: string };

const asked = (o: LanguageModelV3CallOptions): Asked => ({
  system: o.prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n"),
  prompt: o.prompt.flatMap((m) => (m.role === "user" ? m.content.map((p) => (p.type === "text" ? p.text : "")) : [])).join("\n"),
});

/** A model that answers `answers` in turn (the last once they run out), keeping what each call asked in `calls`. */
export function scriptedModel(...answers: string[]) {
  const calls: Asked[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (o) => {
      calls.push(asked(o));
      return answer(answers[Math.min(calls.length, answers.length) - 1]);
    },
  });
  return { model, calls };
}
