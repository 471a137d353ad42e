import type { Caller } from "@/lib/domain/context";

// 2025-era tool calls running in this process. A client cancels one with
// notifications/cancelled in a separate POST naming its JSON-RPC id; within the signed session
// that id is the client's own, so the key holds the user, the app and the session too (another
// app, or another session of the same app, cancels nothing). The POST may reach another
// process: that call then runs on as if the client had only hung up late (its wait for the
// owner still ends: waits are stored, elicitation.ts).
const calls = new Map<string, Set<AbortController>>();

const keyOf = (caller: Caller, session: string, id: string | number) => JSON.stringify([caller.userId, caller.appId, session, id]);

/** Tracks a call until `done()`; its signal aborts when the client cancels it. */
export function trackCall(caller: Caller, session: string, id: string | number): { signal: AbortSignal; done: () => void } {
  const stop = new AbortController();
  // Without a session, the id alone could name another connection's call.
  if (!session) return { signal: stop.signal, done: () => {} };
  const key = keyOf(caller, session, id);
  const set = calls.get(key) ?? calls.set(key, new Set()).get(key)!;
  set.add(stop);
  return {
    signal: stop.signal,
    done: () => {
      set.delete(stop);
      if (!set.size && calls.get(key) === set) calls.delete(key);
    },
  };
}

export function cancelCall(caller: Caller, session: string, id: string | number): void {
  if (session) for (const stop of calls.get(keyOf(caller, session, id)) ?? []) stop.abort();
}
