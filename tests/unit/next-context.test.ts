import asyncHooks, { type AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";

// next-context.mjs switches Next's request context off once Next has nothing in flight, so
// that the API and MCP calls server.mjs serves outside Next stop paying its hook on every
// promise. What must hold: a request Next is still serving keeps its context however long it
// takes, including what it left running on timers; a request that starts during the quiet
// delay cancels it; Next's next request has its context again; and nobody else's context is
// ever touched.

type Begin = () => () => void;
const { trackNextContext } = (await import(path.join(process.cwd(), "server", "next-context.mjs"))) as {
  trackNextContext: (o: { graceMs?: number; isNext?: (stack: string | undefined) => boolean }) => Begin;
};

const GRACE_MS = 100;
const original = asyncHooks.AsyncLocalStorage;
afterEach(() => {
  asyncHooks.AsyncLocalStorage = original;
});

/** A reader of the store seen `afterMs` later from inside `context.run(store)`. */
const storeLater = (context: AsyncLocalStorage<string>, store: string, afterMs: number) =>
  context.run(store, () => new Promise<string | undefined>((resolve) => setTimeout(() => resolve(context.getStore()), afterMs)));

/** An instance made by a module under node_modules/next/, as Next's runtime and its React make theirs. */
function madeInNextsFiles(): AsyncLocalStorage<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "next-context-"));
  const file = path.join(dir, "node_modules", "next", "dist", "runtime.cjs");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'module.exports = () => new (require("node:async_hooks").AsyncLocalStorage)();');
  try {
    return createRequire(import.meta.url)(file)();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Tracking set up as server.mjs does, and an instance made the way Next makes its own (from `async_hooks`). */
function nextContext() {
  const begin = trackNextContext({ graceMs: GRACE_MS, isNext: () => true });
  const context = new asyncHooks.AsyncLocalStorage<string>();
  return { begin, context, later: (store: string, afterMs: number) => storeLater(context, store, afterMs) };
}

describe("Next's request context", () => {
  it("is kept for a request in flight for longer than the quiet delay", async () => {
    const { begin, later } = nextContext();
    const end = begin();
    expect(await later("slow page", GRACE_MS * 3)).toBe("slow page");
    end();
  });

  it("is kept while any request is in flight, even when others have ended", async () => {
    const { begin, later } = nextContext();
    const first = begin();
    const second = begin();
    const seen = later("second", GRACE_MS * 3);
    first();
    first(); // ending twice counts once
    expect(await seen).toBe("second");
    second();
  });

  it("is switched off once nothing has been in flight for the quiet delay", async () => {
    const { begin, later } = nextContext();
    const end = begin();
    const seen = later("finished page", GRACE_MS * 3); // work the request left behind
    end();
    expect(await seen).toBeUndefined();
  });

  it("stays on when a request starts during the quiet delay", async () => {
    const { begin, later } = nextContext();
    begin()();
    await sleep(GRACE_MS / 2);
    const end = begin();
    expect(await later("next page", GRACE_MS * 3)).toBe("next page");
    end();
  });

  it("is there again for Next's next request after being switched off", async () => {
    const { begin, context, later } = nextContext();
    begin()();
    await sleep(GRACE_MS * 2);
    const end = begin();
    // What Next does at a request's start: run() with the request's store.
    expect(await later("after the quiet spell", 20)).toBe("after the quiet spell");
    expect(context.getStore()).toBeUndefined(); // outside the request
    end();
  });

  it("switches off only the instances Next's own files made", async () => {
    const begin = trackNextContext({ graceMs: GRACE_MS }); // the filter server.mjs uses
    const ours = new asyncHooks.AsyncLocalStorage<string>();
    const nexts = madeInNextsFiles();
    const oursSeen = storeLater(ours, "ours", GRACE_MS * 3);
    const nextSeen = storeLater(nexts, "next's", GRACE_MS * 3);
    begin()();
    expect(await oursSeen).toBe("ours");
    expect(await nextSeen).toBeUndefined();
  });
});
