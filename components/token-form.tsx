"use client";
import { useActionState, useEffect, useRef } from "react";
import { CopyField } from "./copy-button";
import { formatInZone } from "@/lib/core/time";

/** A refusal, or the token just made: shown in this answer only, never again. */
export type TokenState = { error?: string; name?: string; token?: string; expiresAt?: string } | null;

type Props = {
  action: (prev: TokenState, form: FormData) => Promise<TokenState>;
  csrf: string;
  /** The lifetimes offered, in days, and the one chosen at first. */
  days: readonly number[];
  defaultDays: number;
  timeZone: string;
  baseUrl: string;
};

const lasts = (d: number) => (d % 365 === 0 ? `${d / 365} year${d === 365 ? "" : "s"}` : `${d} days`);

/**
 * Settings > Connections: make a personal API token. Its value comes back in the action's
 * answer and is shown here once, focused so that a keyboard or screen reader lands on it.
 */
export function TokenForm({ action, csrf, days, defaultDays, timeZone, baseUrl }: Props) {
  const [state, run, pending] = useActionState(action, null);
  const made = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!state?.token) return;
    form.current?.reset();
    made.current?.focus();
  }, [state]);
  return (
    <>
      <form action={run} ref={form} className="stack" aria-busy={pending}>
        <input type="hidden" name="csrf" value={csrf} />
        <div>
          <label htmlFor="token-name">Name</label>
          <input id="token-name" name="name" type="text" required maxLength={100} autoComplete="off" aria-describedby="token-name-help" />
          <p className="help" id="token-name-help">
            What will use it, e.g. &ldquo;Publishing script&rdquo;. It is listed under AI apps by this name.
          </p>
        </div>
        <div>
          <label htmlFor="token-days">Expires after</label>
          <select id="token-days" name="days" defaultValue={String(defaultDays)}>
            {days.map((d) => (
              <option key={d} value={d}>
                {lasts(d)}
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <button className="btn primary" type="submit" disabled={pending}>
            {pending ? "Creating…" : "Create token"}
          </button>
        </div>
        {state?.error ? (
          <p className="error-box" role="alert">
            {state.error}
          </p>
        ) : null}
      </form>
      {state?.token ? (
        <div className="ok-box token-box stack" role="status" tabIndex={-1} ref={made} aria-labelledby="token-made">
          <p id="token-made">
            <strong>Token &ldquo;{state.name}&rdquo; created. Copy it now: it will not be shown again.</strong> It works until{" "}
            <span className="token-expiry">{formatInZone(new Date(state.expiresAt!), timeZone)}</span>, or until you revoke it above.
          </p>
          <CopyField id="new-token" label="Your new token" value={state.token} what="the new token" />
          <p className="help">
            Send it as <code>Authorization: Bearer …</code> to <code>{baseUrl}/&#123;operation&#125;</code>, or give it to an MCP client that takes a token.
          </p>
        </div>
      ) : null}
    </>
  );
}
