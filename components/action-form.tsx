"use client";
import { useActionState, useId, useRef, type ReactNode } from "react";
import { ConfirmDialog } from "./confirm-dialog";

/** A refusal to show beside the form, or (adding a webhook, rotating its secret) a signing secret to show once. */
export type ActionState = { error?: string; secret?: string } | null;
type Props = {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  children: ReactNode;
  className?: string;
  /** Ask first in a modal dialog: the question and the confirming button's label. */
  confirm?: { question: string; label: string; danger?: boolean };
  label?: string;
  labelClass?: string;
};

/**
 * A form of the owner's pages whose refusal is shown beside it, in the API's own words.
 * With `confirm`, its button opens a native modal <dialog> first (focus moves into it,
 * Escape cancels); the action runs only from the dialog's own button. A signing secret in
 * the answer is shown here once: never put in the page's address or shown again.
 */
export function ActionForm({ action, children, className, confirm, label, labelClass }: Props) {
  const [state, run, pending] = useActionState(action, null);
  const dialog = useRef<HTMLDialogElement>(null);
  const qid = useId();
  return (
    <form action={run} className={className} aria-busy={pending}>
      {children}
      {confirm ? (
        <>
          <button type="button" className={labelClass ?? "btn"} onClick={() => dialog.current?.showModal()} disabled={pending}>
            {label}
          </button>
          <ConfirmDialog dialogRef={dialog} id={qid} question={confirm.question} confirmLabel={confirm.label} danger={!!confirm.danger} />
        </>
      ) : label ? (
        <button type="submit" className={labelClass ?? "btn"} disabled={pending}>
          {label}
        </button>
      ) : null}
      {state?.error ? (
        <p className="error-box" role="alert">
          {state.error}
        </p>
      ) : null}
      {state?.secret ? (
        <div className="ok-box secret-box" role="status">
          <p>
            <strong>Signing secret, shown only now.</strong> Copy it into your receiver to verify the webhook-signature header:
          </p>
          <p>
            <code className="secret">{state.secret}</code>
          </p>
        </div>
      ) : null}
    </form>
  );
}
