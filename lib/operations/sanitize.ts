import { invalid, type ErrorDetail } from "@/lib/core/errors";

const MAX_DEPTH = 32;

function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return "Text may not contain NUL (\\u0000) characters";
  if (!text.isWellFormed()) return "Text may not contain half an emoji (an unpaired UTF-16 surrogate, such as \\ud83d alone)";
  return null;
}

/**
 * Problems no schema should have to think about: NUL characters (PostgreSQL text cannot
 * hold them), half an emoji (an unpaired UTF-16 surrogate, which JSON allows: text would
 * silently hold U+FFFD instead) in a value or a key, and absurd nesting. Walks iteratively,
 * so no input can exhaust the stack.
 */
export function inputProblems(input: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: input, path: "", depth: 0 }];
  while (stack.length && problems.length < 20) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      const problem = textProblem(v);
      if (problem) problems.push({ path: path || "(body)", message: problem });
    } else if (v && typeof v === "object") {
      if (depth >= MAX_DEPTH) {
        problems.push({ path: path || "(body)", message: `Nested more than ${MAX_DEPTH} levels deep` });
        continue;
      }
      for (const [k, child] of Object.entries(v)) {
        const problem = textProblem(k);
        const key = problem ? k.toWellFormed() : k;
        const at = path ? `${path}.${key}` : key;
        if (problem) problems.push({ path: at, message: `Field name: ${problem}` });
        else stack.push({ v: child, path: at, depth: depth + 1 });
      }
    }
  }
  return problems;
}

/** Refuses such input as invalid_request, before anything stores, hashes or parses it. */
export function refuseBadInput(input: unknown): void {
  const problems = inputProblems(input);
  if (problems.length) throw invalid(problems);
}
