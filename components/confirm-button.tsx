"use client";
import { useRef, type ReactNode } from "react";
import { ConfirmDialog } from "./confirm-dialog";

type Props = { label: string; question: string; confirm: string; hidden: Record<string, string>; action: (f: FormData) => Promise<void>; children?: ReactNode };

/**
 * A destructive button that asks first, in a native modal <dialog> (focus moves into it,
 * Escape cancels). Without JavaScript the button submits directly: the form still works.
 */
export function ConfirmButton({ label, question, confirm, hidden, action }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <form action={action}>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button
        type="submit"
        className="btn danger"
        onClick={(e) => {
          if (dialog.current && !dialog.current.open) {
            e.preventDefault();
            dialog.current.showModal();
          }
        }}
      >
        {label}
      </button>
      <ConfirmDialog dialogRef={dialog} id={`${hidden.appId ?? hidden.provider ?? hidden.webhookId}-q`} question={question} confirmLabel={confirm} />
    </form>
  );
}
