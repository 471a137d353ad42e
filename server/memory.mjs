// How `npm start` has V8 manage memory (server.mjs; measured in docs/performance.md). The bench's
// scheduler processes take the same settings, so that a pass is measured as the server runs it.
import v8 from "node:v8";
import { watchTraffic } from "./young-generation.mjs";

/** Applies the settings; returns the function that counts a request as traffic. Call it before the app is loaded. */
export function settleMemory() {
  // Memory under load: V8 lets the old generation grow to up to 4 times what survived the last
  // full collection before it collects again. Under load most of the heap is garbage awaiting
  // that collection, not live data, so the peak RSS is mostly garbage. Growing by at most 2
  // times lowers the peak with no measurable cost per request (docs/performance.md, "Memory and
  // start-up"). A soft limit: the heap still grows as far as the live data needs. Read at every
  // collection, so it can be set here.
  v8.setFlagsFromString("--heap-growing-percent=100");
  // The embedded database is PostgreSQL compiled to WebAssembly. V8 first compiles it with its
  // baseline compiler (Liftoff), then recompiles hot functions with its optimizing compiler in
  // the background. That second tier kept memory resident and slowed start-up, and made no
  // request cheaper: a fetch_item costs the same CPU either way (docs/performance.md). Read
  // when a module is compiled.
  v8.setFlagsFromString("--liftoff-only");
  // Before the app is loaded: start-up would grow V8's young generation to its largest, and
  // nothing would give it back until long after (young-generation.mjs).
  return watchTraffic();
}
