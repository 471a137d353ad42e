import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { config } from "@/lib/core/config";
import type { Writer } from "@/lib/domain/ports";
import { AppError, cancelled } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { fits, fitTo, POST_FIT, tidy, type Fit } from "./length";
import { offlineModel } from "./offline-model";
import { buildPrompt, networkOfBrief, THREAD_SEPARATOR, type Brief } from "./prompts";

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
      // A token a character the network allows: room for any script (a CJK character is about one).
      maxOutputTokens: b.format === "tweet" ? networkOfBrief(b).text.max * (b.parts ?? 1) : 1200,
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
 * One post or tweet in the author's voice, always within its limit: a tweet over its
 * network's (X's 280 weighted characters, Bluesky's 300 graphemes) is asked for again once,
 * told why in the network's words, and then trimmed; a post over 3000 characters is trimmed.
 */
export async function write(m: LanguageModel, b: Brief, signal?: AbortSignal): Promise<string> {
  let text = await once(m, b, signal);
  if (!text) text = await once(m, b, signal);
  if (!text) throw new AppError("temporarily_unavailable", "The writing model returned no text.", "Nothing was charged. Retry in a minute.");
  if (b.format === "post") return fitTo(POST_FIT, text);
  const rule = networkOfBrief(b).text;
  const problem = rule.problem(text);
  if (!problem) return text;
  const retry = await once(m, b, signal, `<note>${JSON.stringify(`The last draft did not fit: ${problem}. Write a shorter one.`)}</note>`);
  return retry && fits(rule, retry) ? retry : fitTo(rule, retry || text);
}

/**
 * The parts of a thread in the model's answer: split at separator lines, tidied, each made to
 * fit the network's text rule; at most `n`. An answer that is one block is cut at sentence ends
 * instead.
 */
export function splitThread(text: string, n: number, rule: Fit): string[] {
  const sep = new RegExp(`^\\s*${THREAD_SEPARATOR}+\\s*$`, "m");
  let parts = text
    .split(sep)
    .map((p) => tidy(p))
    .filter(Boolean);
  if (parts.length < 2) {
    // Sentences packed into parts by the rule, for a model that ignored the separator.
    parts = [];
    for (const sentence of text.replace(/\s+/g, " ").match(/[^.!?]+[.!?]*/g) ?? []) {
      const last = parts[parts.length - 1];
      if (last !== undefined && fits(rule, `${last} ${sentence.trim()}`)) parts[parts.length - 1] = `${last} ${sentence.trim()}`;
      else parts.push(sentence.trim());
    }
  }
  return parts.slice(0, n).map((p) => fitTo(rule, p));
}

/** A thread of `b.parts` tweets in the author's voice (at least 2 parts, each within its network's limit). */
export async function writeThread(m: LanguageModel, b: Brief & { parts: number }, signal?: AbortSignal): Promise<string[]> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const parts = splitThread(await once(m, b, signal), b.parts, networkOfBrief(b).text);
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
