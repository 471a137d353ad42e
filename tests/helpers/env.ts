import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "@/lib/config";

/**
 * Runs a test file with these environment variables (undefined removes one), read afresh by
 * config(), and puts back exactly what was there afterwards.
 */
export function withEnv(vars: Record<string, string | undefined>) {
  const saved: Record<string, string | undefined> = {};
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
    }
    resetConfig();
  };
  beforeAll(() => {
    for (const k of Object.keys(vars)) saved[k] = process.env[k];
    apply(vars);
  });
  afterAll(() => apply(saved));
}
