import { invalid, type ErrorDetail } from "@/lib/errors";

const MAX_DEPTH = 32;

/**
 * Problems no schema should have to think about: NUL characters (PostgreSQL text cannot
 * hold them) and absurd nesting. Walks iteratively, so no input can exhaust the stack.
 */
export function inputProblems(input: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: input, path: "", depth: 0 }];
  while (stack.length && problems.length < 20) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes("\u0000")) problems.push({ path: path || "(body)", message: "Text may not contain NUL (\\u0000) characters" });
    } else if (v && typeof v === "object") {
      if (depth >= MAX_DEPTH) {
        problems.push({ path: path || "(body)", message: `Nested more than ${MAX_DEPTH} levels deep` });
        continue;
      }
      for (const [k, child] of Object.entries(v)) stack.push({ v: child, path: path ? `${path}.${k}` : k, depth: depth + 1 });
    }
  }
  return problems;
}

/** Refuses such input as invalid_request, before anything stores, hashes or parses it. */
export function refuseBadInput(input: unknown): void {
  const problems = inputProblems(input);
  if (problems.length) throw invalid(problems);
}
