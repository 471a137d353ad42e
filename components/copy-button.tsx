"use client";
import { useState } from "react";
import "./connections.css";

/**
 * Copies `text` and says so where screen readers hear it ("Copied"). A service reached over
 * plain http on another machine has no Clipboard API (browsers keep it to secure origins), so
 * then the copy goes through a selection; if that fails too, the owner is told to copy by hand.
 * `what` completes the button's name for screen readers: "Copy the MCP URL".
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [said, say] = useState("");
  async function copy() {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else if (!copyBySelection(text)) throw new Error("no clipboard");
      say("Copied");
    } catch {
      say("Could not copy: select the text and press Ctrl+C (⌘C on a Mac)");
    }
    // Said again on the next press, even when the words are the same.
    setTimeout(() => say(""), 4000);
  }
  return (
    <span className="copy">
      <button type="button" className="btn" onClick={copy}>
        Copy<span className="sr-only"> {what}</span>
      </button>
      <span className="copy-said" aria-live="polite">
        {said}
      </span>
    </span>
  );
}

function copyBySelection(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  const focused = document.activeElement as HTMLElement | null;
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } finally {
    area.remove();
    focused?.focus();
  }
  return ok;
}

/** A value to copy, readable and selectable in a read-only field, with its Copy button. */
export function CopyField({ id, label, value, what, help }: { id: string; label: string; value: string; what: string; help?: string }) {
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        {/* A text area that grows with its value where the browser can (field-sizing), so a long
            URL or token wraps on a phone and can be read whole; elsewhere it scrolls like a field. */}
        <textarea
          id={id}
          readOnly
          rows={1}
          value={value}
          spellCheck={false}
          aria-describedby={help ? `${id}-help` : undefined}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton text={value} what={what} />
      </div>
      {help ? (
        <p className="help" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
    </div>
  );
}
