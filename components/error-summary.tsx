"use client";
import { useEffect, useRef } from "react";

export type FieldProblem = { id: string; label: string; message?: string };

/**
 * What went wrong with a form, where the owner is looking: after a refused submit the page may
 * still be scrolled to the button, so the summary takes the focus (and with it the view), says
 * what happened and links to each field in error, which carries aria-invalid beside it (the
 * GOV.UK error summary: https://design-system.service.gov.uk/components/error-summary/).
 * `attempt` changes with every refused submit, so a second refusal moves the focus again.
 */
export function ErrorSummary({
  message,
  fields = [],
  attempt,
  children,
}: {
  message: string;
  fields?: FieldProblem[];
  attempt: unknown;
  children?: React.ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, [attempt]);
  return (
    <div ref={box} className="error-box error-summary" role="alert" tabIndex={-1} aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There is a problem</h2>
      <p>{message}</p>
      {fields.length ? (
        <ul>
          {fields.map((f) => (
            <li key={f.id}>
              <a
                href={`#${f.id}`}
                onClick={(e) => {
                  // Focus the field itself, not only scroll to it.
                  const el = document.getElementById(f.id);
                  if (!el) return;
                  e.preventDefault();
                  el.focus();
                  el.scrollIntoView({ block: "center" });
                }}
              >
                {f.label}
                {f.message ? `: ${f.message}` : ""}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {children}
    </div>
  );
}
