"use client";
import { useActionState, useEffect, useRef } from "react";
import type { ActionState } from "./action-form";

type Props = {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  csrf: string;
  view: string;
  anchor: string;
};

/**
 * Drag and drop on the calendar: an element with `data-drag` ({type, id, shown?}) dropped on
 * a day (`data-day`) sends this form, the same Server Action as the side list's Schedule
 * buttons, which work without it (and without JavaScript). The server refuses a past day and
 * says why here.
 */
export function CalendarDrop({ action, csrf, view, anchor }: Props) {
  const [state, run, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  const fields = useRef<Record<string, HTMLInputElement | null>>({});
  useEffect(() => {
    let dragged: { type: string; id: string; shown?: string } | null = null;
    let over: HTMLElement | null = null;
    const dayOf = (e: Event) => (e.target instanceof Element ? e.target.closest<HTMLElement>("[data-day]") : null);
    const mark = (day: HTMLElement | null) => {
      if (over === day) return;
      over?.classList.remove("drop-here");
      over = day;
      over?.classList.add("drop-here");
    };
    const start = (e: DragEvent) => {
      const el = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-drag]") : null;
      if (!el || !e.dataTransfer) return;
      dragged = JSON.parse(el.dataset.drag!);
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", el.textContent ?? "");
      document.body.classList.add("dragging");
    };
    const dragOver = (e: DragEvent) => {
      const day = dayOf(e);
      if (!dragged || !day) return mark(null);
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
      mark(day);
    };
    const drop = (e: DragEvent) => {
      const day = dayOf(e);
      if (!dragged || !day) return;
      e.preventDefault();
      const f = fields.current;
      f.type!.value = dragged.type;
      f.id!.value = dragged.id;
      f.day!.value = day.dataset.day!;
      f.shown!.value = dragged.shown ?? "";
      f.shown!.disabled = dragged.shown === undefined;
      end();
      form.current?.requestSubmit();
    };
    const end = () => {
      dragged = null;
      mark(null);
      document.body.classList.remove("dragging");
    };
    document.addEventListener("dragstart", start);
    document.addEventListener("dragover", dragOver);
    document.addEventListener("drop", drop);
    document.addEventListener("dragend", end);
    return () => {
      document.removeEventListener("dragstart", start);
      document.removeEventListener("dragover", dragOver);
      document.removeEventListener("drop", drop);
      document.removeEventListener("dragend", end);
    };
  }, []);
  const hidden = (name: string) => <input type="hidden" name={name} ref={(el) => void (fields.current[name] = el)} />;
  return (
    <form ref={form} action={run} className="cal-drop" aria-busy={pending}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="view" value={view} />
      <input type="hidden" name="d" value={anchor} />
      {hidden("type")}
      {hidden("id")}
      {hidden("day")}
      {hidden("shown")}
      <div role="alert">{state?.error ? <p className="error-box">{state.error}</p> : null}</div>
      {pending ? (
        <p className="muted" role="status">
          Moving…
        </p>
      ) : null}
    </form>
  );
}
