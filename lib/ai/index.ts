import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel } from "ai";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { errorFacts } from "@/lib/redact";
import { tweetWeight } from "@/lib/domain/text";
import { fitsPost, fitsTweet, tidy, trimPost, trimTweet } from "./length";
import { offlineModel } from "./offline-model";
import { buildPrompt, type Brief } from "./prompts";

export type { Brief, Voice } from "./prompts";

/**
 * The model from configuration (the default ports' `model`): any OpenAI-compatible
 * chat-completions server when OPENAI_API_KEY is set, else the offline composer. Both go
 * through generateText, so the code path (prompt, limits, retries, refunds) is the same.
 */
export function model(): LanguageModel {
  const c = config();
  if (!c.OPENAI_API_KEY) return offlineModel();
  // .chat(): chat completions, which compatible servers offer (the Responses API rarely is).
  return createOpenAI({ apiKey: c.OPENAI_API_KEY, baseURL: c.OPENAI_BASE_URL }).chat(c.AI_MODEL);
}

const TIMEOUT_MS = 60_000;

async function once(m: LanguageModel, b: Brief, extra?: string) {
  const { system, prompt } = buildPrompt(b);
  try {
    const r = await generateText({
      model: m,
      system,
      prompt: extra ? `${prompt}\n${extra}` : prompt,
      maxOutputTokens: b.format === "tweet" ? 200 : 1200,
      maxRetries: 1,
      abortSignal: AbortSignal.timeout(TIMEOUT_MS),
    });
    log("info", "ai.generate", { format: b.format, inputTokens: r.usage.inputTokens, outputTokens: r.usage.outputTokens });
    return tidy(r.text);
  } catch (e) {
    // A provider's error may quote the API key: only redacted facts are logged.
    log("warn", "ai.generate_failed", { format: b.format, ...errorFacts(e) });
    throw new AppError("temporarily_unavailable", "The writing model did not answer.", "Nothing was charged. Retry in a minute.");
  }
}

/**
 * One post or tweet in the author's voice, always within its limit: an over-long tweet is
 * asked for again once, shorter, and then trimmed; a post over 3000 characters is trimmed.
 */
export async function write(m: LanguageModel, b: Brief): Promise<string> {
  let text = await once(m, b);
  if (!text) text = await once(m, b);
  if (!text) throw new AppError("temporarily_unavailable", "The writing model returned no text.", "Nothing was charged. Retry in a minute.");
  if (b.format === "post") return fitsPost(text) ? text : trimPost(text);
  if (fitsTweet(text)) return text;
  const retry = await once(m, b, `<note>${JSON.stringify(`The last draft weighed ${tweetWeight(text)} of 280. Write a shorter one.`)}</note>`);
  return fitsTweet(retry) && retry ? retry : trimTweet(retry || text);
}
