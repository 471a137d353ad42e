import { randomUUID } from "node:crypto";

// Text that leaves the service (failure reasons, notes, API answers) or goes to the log must
// never carry a credential or a raw database error. Platforms' error bodies may echo the
// request's token, and a failed query's error holds its SQL and parameters (users' text).

// What names a credential, in the key=value pattern below.
const CREDENTIAL_NAME = /(?:token|secret|password|passwd|api[_-]?key|authorization|code_verifier|assertion|signature)/.source;

const REPLACEMENTS: [RegExp, string][] = [
  // Authorization schemes followed by their credential.
  [/\b(Bearer|Basic|Token|OAuth)(\s+)[^\s"',;}&]+/gi, "$1$2[redacted]"],
  // key=value, key: value and "key": "value" for anything named like a credential. The name's
  // parts are bounded: unbounded, a long run of such names backtracks without end.
  [new RegExp(String.raw`(\b[\w-]{0,64}${CREDENTIAL_NAME}[\w-]{0,64})(["']?\s*[:=]\s*["']?)[^\s"'&,;}]+`, "gi"), "$1$2[redacted]"],
  // This service's own tokens, wherever they appear.
  [/\bcto_[a-z]{2}_[\w-]+/g, "[redacted]"],
  // Any long opaque run (tokens, keys) even without a label.
  [/[\w-]{32,}/g, "[redacted]"],
];

/**
 * `text` without credentials, whitespace and control characters collapsed to one space, at
 * most `max` characters, and never ending in half an emoji (the cut keeps a surrogate pair
 * whole; any lone one becomes U+FFFD): it is stored, and PostgreSQL refuses NUL and half emoji.
 */
export function redactSecrets(text: string, max = 200): string {
  // Only the start is read: the result is short, and the patterns' cost grows with the input.
  const read = Math.max(4_000, max * 10);
  const cut = text.length > read;
  let out = (cut ? withoutCutRun(text.slice(0, isHighSurrogate(text.charCodeAt(read - 1)) ? read - 1 : read)) : text)
    .toWellFormed()
    .replace(/[\s\u0000-\u001f\u007f]+/g, " ") // NUL and other controls too: PostgreSQL text refuses NUL
    .trim();
  for (const [re, to] of REPLACEMENTS) out = out.replace(re, to);
  if (!cut && out.length <= max) return out;
  if (out.length < max) return `${out}…`;
  const end = isHighSurrogate(out.charCodeAt(max - 2)) ? max - 2 : max - 1;
  return `${out.slice(0, end).trimEnd()}…`;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** `text` without its last run of word characters: the cut may have left the start of a token, too short to look like one. */
function withoutCutRun(text: string): string {
  let end = text.length;
  while (end > 0 && /[\w-]/.test(text[end - 1])) end--;
  return text.slice(0, end);
}

/** An id that ties a generic message shown to people to the log line with the details. */
export const newErrorId = () => randomUUID();

/** A database error (drizzle's wrapper with the query, or the driver's own with a SQLSTATE). */
function isDatabaseError(e: unknown): boolean {
  for (let c = e, i = 0; c && typeof c === "object" && i < 5; c = (c as { cause?: unknown }).cause, i++) {
    if ("query" in c || "severity" in c || /^[0-9A-Z]{5}$/.test(String((c as { code?: unknown }).code ?? ""))) return true;
  }
  return false;
}

/** An error's code, or its cause's (drizzle wraps the driver's error, which has the SQLSTATE). */
export function errorCode(e: unknown): unknown {
  const err = e as { code?: unknown; cause?: { code?: unknown } } | null;
  return err?.code ?? err?.cause?.code;
}

/**
 * What to log of an unexpected error: its kind and code; its message only when it is not a
 * database error (whose text holds SQL and users' data), and then without credentials.
 */
export function errorFacts(e: unknown): Record<string, unknown> {
  const code = errorCode(e);
  if (isDatabaseError(e)) return { error: "database error", ...(code !== undefined && { code: String(code) }) };
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { error: redactSecrets(message, 300), ...(code !== undefined && { code: String(code) }) };
}
