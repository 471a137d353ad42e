// How `npm start` has V8 manage memory (server.mjs; ARCHITECTURE.md, Performance). The bench's
// scheduler processes take the same settings, so that a pass is measured as the server runs it.
import v8 from "node:v8";
import { watchTraffic } from "./young-generation.mjs";

/** Applies the settings; returns the function that counts a request as traffic. Call it before the app is loaded. */
export function settleMemory() {
  // Memory under load: V8 lets the old generation grow to up to 4 times what survived the last
  // full collection before it collects again. A heap snapshot under 50 concurrent MCP calls held
  // 53 MB of live objects while the heap used 190 MB (the rest garbage awaiting collection), so
  // RSS peaked near 330 MB. Growing by at most 2 times keeps the peak about 70 MB lower on
  // PostgreSQL with no measurable cost per request. A soft limit: the heap still grows as far
  // as the live data needs. Read at every collection, so it can be set here.
  v8.setFlagsFromString("--heap-growing-percent=100");
  // The embedded database is PostgreSQL compiled to WebAssembly. V8 first compiles it with its
  // baseline compiler (Liftoff), then recompiles hot functions with its optimizing compiler in
  // the background. That second tier kept about 60 MB more resident (idle RSS 269 -> 209 MB)
  // and slowed start-up (2.0 -> 1.5 s), and made no request cheaper: a fetch_item costs the
  // same CPU either way. Read when a module is compiled.
  v8.setFlagsFromString("--liftoff-only");
  // Before the app is loaded: start-up would grow V8's young generation to its largest, and
  // nothing would give it back for 15-30 s (young-generation.mjs).
  return watchTraffic();
}
