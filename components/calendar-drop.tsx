"use client";
import { useActionState, useEffect, useRef } from "react";
import { useRouter } from "next/navigation";
import type { ActionState } from "./action-form";

type Props = {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  csrf: string;
  /** The key the page made when it was drawn: a second drop sent before the page comes back answers as the first. */
  formKey: string;
  view: string;
  anchor: string;
};

/**
 * Drag and drop on the calendar: an element with `data-drag` ({type, id, shown}) dropped on
 * a day (`data-day`) sends this form, the same Server Action as the side list's Schedule
 * buttons, which work without it (and without JavaScript). The server refuses a past day and
 * says why here. An item whose content the owner has not seen as it is now carries `review`
 * (its page) instead of `shown`: the calendar shows titles only, so the drop opens it.
 */
export function CalendarDrop({ action, csrf, formKey, view, anchor }: Props) {
  const [state, run, pending] = useActionState(action, null);
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const fields = useRef<Record<string, HTMLInputElement | null>>({});
  useEffect(() => {
    let dragged: { type: string; id: string; shown?: string; review?: string } | null = null;
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
      if (dragged.review) {
        router.push(`${dragged.review}?done=review-first`);
        return end();
      }
      const f = fields.current;
      f.type!.value = dragged.type;
      f.id!.value = dragged.id;
      f.day!.value = day.dataset.day!;
      f.shown!.value = dragged.shown ?? "";
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
  }, [router]);
  const hidden = (name: string) => <input type="hidden" name={name} ref={(el) => void (fields.current[name] = el)} />;
  return (
    <form ref={form} action={run} className="cal-drop" aria-busy={pending}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="key" value={formKey} />
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
