import { afterAll, beforeAll } from "vitest";
import { overrideConfig } from "@/lib/core/config";

// Tests configure the service through the config port (overrideConfig), never process.env:
// nothing leaks into child processes or other files, and values are parsed as in production.

type Vars = Record<string, string | undefined>;
let current: Vars = {};

function apply(vars: Vars) {
  current = vars;
  overrideConfig(vars);
}

/** Runs a test file with this configuration (undefined removes a value), then puts back what was there. */
export function withConfig(vars: Vars) {
  let saved: Vars = {};
  beforeAll(() => {
    saved = current;
    apply({ ...current, ...vars });
  });
  afterAll(() => apply(saved));
}

/** Changes the configuration now; the function returned puts back what was there. */
export function reconfigure(vars: Vars): () => void {
  const saved = current;
  apply({ ...current, ...vars });
  return () => apply(saved);
}

/** Runs `fn` with this configuration, then puts back what was there, also when it throws. */
export async function configured<T>(vars: Vars, fn: () => T | Promise<T>): Promise<T> {
  const restore = reconfigure(vars);
  try {
    return await fn();
  } finally {
    restore();
  }
}
