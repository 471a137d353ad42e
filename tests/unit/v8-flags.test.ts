import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The front server sets V8 flags at run time (server/memory.mjs, young-generation.mjs), and V8
// ignores a flag it no longer knows with a line on stderr only: a Node upgrade that drops or
// renames one would silently lose the memory figures of docs/performance.md. Every flag those
// files set must be one this Node accepts on its command line.
const FILES = ["server/memory.mjs", "server/young-generation.mjs"];

function flagsSet(): string[] {
  const flags = new Set<string>();
  for (const f of FILES) {
    const source = fs.readFileSync(path.join(process.cwd(), f), "utf8");
    // A boolean flag's `--no-` form is the same flag.
    for (const [, flag] of source.matchAll(/setFlagsFromString\(\s*[`"]--(?:no-)?([a-z-]+)/g)) flags.add(`--${flag}`);
  }
  return [...flags];
}

describe("the V8 flags the front server sets", () => {
  it("are found in the files that set them", () => {
    expect(flagsSet()).toEqual(expect.arrayContaining(["--heap-growing-percent", "--liftoff-only", "--semi-space-growth-factor", "--expose-gc"]));
  });

  it("are each known to this Node's V8", () => {
    const known = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    for (const flag of flagsSet()) expect(known, flag).toMatch(new RegExp(`^\\s+${flag} \\(`, "m"));
  });
});
