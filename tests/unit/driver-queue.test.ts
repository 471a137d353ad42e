import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// postgres.js keeps each pool's connections (open, busy, ...) in a Queue whose shift() leaves
// a dead slot at the front and forgets the dead slots only when a shift empties it. Under
// sustained load a busy queue is emptied by remove() instead, so the dead slots piled up and
// every remove() scanned them all: throughput fell the longer the load lasted
// (docs/performance.md). patches/postgres+*.patch makes remove() start after the dead slots and
// forget them when it empties the queue (upstream: https://github.com/porsager/postgres/issues/747).
// Every build of the library (ESM, CommonJS, workers)
// carries its own copy of the file; each is checked.
type Queue<T> = { readonly length: number; push(x: T): T; shift(): T | undefined; remove(x: T): T | null };
const BUILDS = ["src", "cjs/src", "cf/src"];

async function queueOf(build: string): Promise<<T>(initial?: T[]) => Queue<T>> {
  const mod = await import(pathToFileURL(path.join(process.cwd(), "node_modules/postgres", build, "queue.js")).href);
  return mod.default;
}

/** An array that notes how long it was whenever the queue searched it. */
class Watched<T> extends Array<T> {
  static longest = 0;
  indexOf(x: T, from?: number) {
    Watched.longest = Math.max(Watched.longest, this.length);
    return super.indexOf(x, from);
  }
}

describe.each(BUILDS)("postgres.js connection queue (%s)", (build) => {
  it("does not grow when it is emptied by remove() again and again", async () => {
    const Queue = await queueOf(build);
    Watched.longest = 0;
    // The array the queue holds is a copy of `initial` made with slice(), so a Watched one.
    const q = Queue<object>(new Watched<object>());
    for (let i = 0; i < 1000; i++) {
      const a = q.push({});
      const b = q.push({});
      expect(q.shift()).toBe(a);
      expect(q.remove(b)).toBe(b);
      expect(q.length).toBe(0);
    }
    expect(Watched.longest).toBeLessThanOrEqual(2);
  });

  it("keeps first-in first-out order and removes exactly what it holds, in any sequence", async () => {
    const Queue = await queueOf(build);
    const op = fc.oneof(
      fc.constant({ kind: "push" as const, at: 0 }),
      fc.constant({ kind: "shift" as const, at: 0 }),
      fc.record({ kind: fc.constant("remove" as const), at: fc.nat(12) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const q = Queue<number>();
        const model: number[] = [];
        let next = 0;
        for (const { kind, at } of ops) {
          if (kind === "push") {
            q.push(next);
            model.push(next++);
          } else if (kind === "shift") {
            if (model.length === 0) continue; // postgres.js checks length before it shifts
            expect(q.shift()).toBe(model.shift());
          } else {
            // Something held, or (past the end) something never pushed or already gone.
            const x = at < model.length ? model[at] : next + at;
            expect(q.remove(x)).toBe(at < model.length ? x : null);
            if (at < model.length) model.splice(at, 1);
          }
          expect(q.length).toBe(model.length);
        }
      }),
      { numRuns: 500 },
    );
  });
});
