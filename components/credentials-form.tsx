"use client";
import { useActionState } from "react";
import type { FormState } from "@/app/signin/actions";

type Props = {
  action: (s: FormState, f: FormData) => Promise<FormState>;
  callbackUrl: string;
  submit: string;
  newPassword?: boolean;
  /** Sends an account's e-mail confirmation link again (offered when sign-in needs it). */
  resend?: (f: FormData) => Promise<void>;
};

/** E-mail + password, for both sign-in and sign-up; errors are announced to screen readers. */
export function CredentialsForm({ action, callbackUrl, submit, newPassword, resend }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  const f = state.fields ?? {};
  return (
    <>
      <form action={formAction} className="stack" noValidate>
        <div role="alert" aria-live="assertive">
          {state.error ? <p className="error-box">{state.error}</p> : null}
        </div>
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <div>
          <label htmlFor="email">E-mail</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={state.email}
            aria-invalid={f.email ? true : undefined}
            aria-describedby={f.email ? "email-error" : undefined}
          />
          {f.email ? (
            <p id="email-error" className="field-error">
              {f.email}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            required
            minLength={newPassword ? 10 : undefined}
            autoComplete={newPassword ? "new-password" : "current-password"}
            aria-invalid={f.password ? true : undefined}
            aria-describedby={newPassword ? "password-help" : undefined}
          />
          {newPassword ? (
            <span id="password-help" className="help">
              At least 10 characters.
            </span>
          ) : null}
          {f.password ? <p className="field-error">{f.password}</p> : null}
        </div>
        <div className="actions">
          <button className="btn primary" type="submit" disabled={pending}>
            {pending ? "Please wait…" : submit}
          </button>
        </div>
      </form>
      {resend && state.unconfirmed ? (
        <form action={resend} className="actions">
          <input type="hidden" name="email" value={state.email ?? ""} />
          <button className="btn" type="submit">
            Send the confirmation link again
          </button>
        </form>
      ) : null}
    </>
  );
}
