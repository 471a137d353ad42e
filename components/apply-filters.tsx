"use client";
import { useEffect, useRef, useState } from "react";

/**
 * The filter form's Apply button. Once JavaScript runs, a changed select or checkbox applies
 * at once (the form is sent as the button would send it) and the button goes away; without
 * JavaScript it stays, so the filters still work. The search box applies with Enter.
 */
export function ApplyFilters({ label = "Apply" }: { label?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  const [live, setLive] = useState(false);
  useEffect(() => {
    const form = button.current?.form;
    if (!form) return;
    const change = (e: Event) => {
      const t = e.target;
      if (t instanceof HTMLSelectElement || (t instanceof HTMLInputElement && (t.type === "checkbox" || t.type === "radio"))) form.requestSubmit();
    };
    // Empty fields stay out of the address (/content, not /content?q=&network=): set aside
    // while the form is read, which happens right after this event.
    const submit = () => {
      const empty = [...form.elements].filter(
        (e): e is HTMLInputElement | HTMLSelectElement => (e instanceof HTMLInputElement || e instanceof HTMLSelectElement) && !!e.name && !e.value,
      );
      empty.forEach((e) => (e.disabled = true));
      setTimeout(() => empty.forEach((e) => (e.disabled = false)));
    };
    form.addEventListener("change", change);
    form.addEventListener("submit", submit);
    setLive(true);
    return () => {
      form.removeEventListener("change", change);
      form.removeEventListener("submit", submit);
    };
  }, []);
  return (
    <button ref={button} className="btn" type="submit" hidden={live}>
      {label}
    </button>
  );
}
