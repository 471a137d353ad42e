import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { config } from "@/lib/core/config";
import type { Writer } from "@/lib/domain/ports";
import { AppError, cancelled } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { tweetWeight } from "@/lib/domain/drafts/text";
import { fitsPost, fitsTweet, tidy, trimPost, trimTweet } from "./length";
import { offlineModel } from "./offline-model";
import { buildPrompt, THREAD_SEPARATOR, type Brief } from "./prompts";

export type { Brief, Voice } from "./prompts";

/**
 * The model from configuration (the default model port writes with it): any OpenAI-compatible
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

async function once(m: LanguageModel, b: Brief, signal?: AbortSignal, extra?: string) {
  const { system, prompt } = buildPrompt(b);
  // The ai SDK is loaded on the first generation, not by every route that reaches the ports.
  const { generateText } = await import("ai");
  try {
    const r = await generateText({
      model: m,
      system,
      prompt: extra ? `${prompt}\n${extra}` : prompt,
      maxOutputTokens: b.format === "tweet" ? 200 * (b.parts ?? 1) : 1200,
      maxRetries: 1,
      abortSignal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
    });
    log("info", "ai.generate", { format: b.format, inputTokens: r.usage.inputTokens, outputTokens: r.usage.outputTokens });
    return tidy(r.text);
  } catch (e) {
    if (signal?.aborted) throw cancelled();
    // A provider's error may quote the API key: only redacted facts are logged.
    log("warn", "ai.generate_failed", { format: b.format, ...errorFacts(e) });
    throw new AppError("temporarily_unavailable", "The writing model did not answer.", "Nothing was charged. Retry in a minute.");
  }
}

/**
 * One post or tweet in the author's voice, always within its limit: an over-long tweet is
 * asked for again once, shorter, and then trimmed; a post over 3000 characters is trimmed.
 */
export async function write(m: LanguageModel, b: Brief, signal?: AbortSignal): Promise<string> {
  let text = await once(m, b, signal);
  if (!text) text = await once(m, b, signal);
  if (!text) throw new AppError("temporarily_unavailable", "The writing model returned no text.", "Nothing was charged. Retry in a minute.");
  if (b.format === "post") return fitsPost(text) ? text : trimPost(text);
  if (fitsTweet(text)) return text;
  const retry = await once(
    m,
    b,
    signal,
    `<note>${JSON.stringify(`The last draft weighed ${tweetWeight(text) ?? "far over"} of 280. Write a shorter one.`)}</note>`,
  );
  return fitsTweet(retry) && retry ? retry : trimTweet(retry || text);
}

/**
 * The parts of a thread in the model's answer: split at separator lines, tidied, each made to
 * fit X's limit; at most `n`. An answer that is one block is cut at sentence ends instead.
 */
export function splitThread(text: string, n: number): string[] {
  const sep = new RegExp(`^\\s*${THREAD_SEPARATOR}+\\s*$`, "m");
  let parts = text
    .split(sep)
    .map((p) => tidy(p))
    .filter(Boolean);
  if (parts.length < 2) {
    // Sentences packed into tweets, for a model that ignored the separator.
    parts = [];
    for (const sentence of text.replace(/\s+/g, " ").match(/[^.!?]+[.!?]*/g) ?? []) {
      const last = parts[parts.length - 1];
      if (last !== undefined && fitsTweet(`${last} ${sentence.trim()}`)) parts[parts.length - 1] = `${last} ${sentence.trim()}`;
      else parts.push(sentence.trim());
    }
  }
  return parts.slice(0, n).map((p) => (fitsTweet(p) ? p : trimTweet(p)));
}

/** A thread of `b.parts` tweets in the author's voice (at least 2 parts, each within 280). */
export async function writeThread(m: LanguageModel, b: Brief & { parts: number }, signal?: AbortSignal): Promise<string[]> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const parts = splitThread(await once(m, b, signal), b.parts);
    if (parts.length >= 2) return parts;
  }
  throw new AppError("temporarily_unavailable", "The writing model did not return a thread.", "Nothing was charged. Retry in a minute.");
}

/**
 * The model port: writes through `m()`, asked at each call (the default reads the
 * configuration then: tests change it, and a test passes a fixed model instead).
 */
export function writer(m: () => LanguageModel = model): Writer {
  return {
    write: (b, signal) => write(m(), b, signal),
    writeThread: (b, signal) => writeThread(m(), b, signal),
    // Only the configuration's own model can be the offline one; a model handed in (tests) is a model.
    get offline() {
      return m === model && !config().OPENAI_API_KEY;
    },
  };
}
