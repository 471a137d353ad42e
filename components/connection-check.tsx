"use client";
import { useActionState } from "react";
import type { ConnectionCheck } from "@/lib/adapters/platforms/check";
import { formatInZone } from "@/lib/core/time";

export type CheckState = { checks: ConnectionCheck[] } | { error: string } | null;

/**
 * "Check connections": one harmless read on each connected network, and what each connection
 * can do (reachable, permissions granted against those needed, expiry, renewal).
 */
export function ConnectionCheckForm({
  action,
  csrf,
  timeZone,
}: {
  action: (prev: CheckState, form: FormData) => Promise<CheckState>;
  csrf: string;
  timeZone: string;
}) {
  const [state, run, pending] = useActionState(action, null);
  return (
    <form action={run} className="stack" aria-busy={pending}>
      <input type="hidden" name="csrf" value={csrf} />
      <button className="btn" type="submit" disabled={pending}>
        {pending ? "Checking…" : "Check connections"}
      </button>
      {state && "error" in state ? (
        <p className="error-box" role="alert">
          {state.error}
        </p>
      ) : null}
      {state && "checks" in state ? (
        <div role="status" aria-label="Connection check">
          <ul className="rows">
            {state.checks.length === 0 ? <li>No LinkedIn or X account is connected, so there is nothing to check.</li> : null}
            {state.checks.map((c) => (
              <li key={c.platform}>
                <div>
                  <strong>{c.network}</strong>{" "}
                  <span className={`badge ${c.reachable && !c.missing.length ? "good" : "warn"}`}>{c.reachable ? "Reachable" : "Not reachable"}</span>
                  <p className="meta">{c.detail}</p>
                  {c.apiVersion ? <p className="meta">LinkedIn API version {c.apiVersion}</p> : null}
                  <p className="meta">
                    {c.missing.length
                      ? `Missing permissions: ${c.missing.join(", ")}. Reconnect ${c.network} to grant them.`
                      : c.granted
                        ? `Every permission publishing needs is granted (${c.needed.join(", ")}).`
                        : `${c.network} did not say which permissions it granted.`}
                  </p>
                  <p className="meta">
                    {c.expiresAt ? `Access expires ${formatInZone(new Date(c.expiresAt), timeZone)}` : "No expiry given"} ·{" "}
                    {c.canRenew ? "renews itself" : `cannot renew itself: reconnect ${c.network} before it expires`}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </form>
  );
}
