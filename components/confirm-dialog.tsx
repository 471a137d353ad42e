"use client";
import { useEffect, useRef, useState, type RefObject } from "react";
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
 * submits it, once: a second press before the dialog has closed sends nothing (and the form's
 * key would answer it as the first anyway).
 */
export function ConfirmDialog({ dialogRef, id, question, confirmLabel, danger = true, submit }: Props) {
  // A ref as well as state: two presses within one event-loop turn both see the state before either rendered.
  const once = useRef(false);
  const [pressed, setPressed] = useState(false);
  // Opened again (after a refusal, say): the button confirms once more.
  useEffect(() => {
    const d = dialogRef.current;
    const reset = () => {
      once.current = false;
      setPressed(false);
    };
    d?.addEventListener("close", reset);
    return () => d?.removeEventListener("close", reset);
  }, [dialogRef]);
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
          aria-disabled={pressed || undefined}
          onClick={(e) => {
            if (once.current) return e.preventDefault();
            once.current = true;
            setPressed(true);
            setTimeout(() => dialogRef.current?.close());
          }}
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
