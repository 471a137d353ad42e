"use client";
import type { RefObject } from "react";
import { DeliberateButton } from "./deliberate-button";

type Props = {
  dialogRef: RefObject<HTMLDialogElement | null>;
  id: string;
  question: string;
  confirmLabel: string;
  danger?: boolean;
  /** The confirming button's name and value, for a form with several buttons. */
  submit?: { name: string; value: string };
};

/**
 * The question a form asks before a step that cannot be undone, in a native modal <dialog>
 * (focus moves into it, Escape cancels). It sits inside the form: its confirming button
 * submits it.
 */
export function ConfirmDialog({ dialogRef, id, question, confirmLabel, danger = true, submit }: Props) {
  return (
    <dialog ref={dialogRef} aria-labelledby={id}>
      <p id={id}>
        <strong>{question}</strong>
      </p>
      <div className="actions">
        <DeliberateButton
          type="submit"
          {...submit}
          className={`btn ${danger ? "danger solid" : "primary"}`}
          onClick={() => setTimeout(() => dialogRef.current?.close())}
        >
          {confirmLabel}
        </DeliberateButton>
        <button type="button" className="btn" autoFocus onClick={() => dialogRef.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
