"use client";
import { startTransition, useEffect, useRef, useState, type RefObject } from "react";

/** How long typing must pause before the texts are saved by themselves. */
const PAUSE_MS = 2000;

/** What an autosave answered: the version it made, or why it did not save. */
export type AutosaveAnswer = { error?: string; shown?: string; updated_at?: string; at?: string } | null;

/** A draft's version the form acts on: its content hash, its updated_at, and what it holds. */
export type Version<S> = { shown: string; updatedAt: string; saved: S };

/**
 * An unscheduled draft's texts saved on the server as the owner pauses (the composer and the
 * item page). The form then acts on the version that save made, until the page itself shows a
 * newer one (a button's save, a reload); a button pressed while a save is on its way waits for
 * it. Only the first save of a visit is noted in the history (`noted`).
 */
export function useAutosave<S>(opts: {
  on: boolean;
  /** The version the page shows (none for a draft not saved yet). */
  shown: Version<S> | null;
  form: RefObject<HTMLFormElement | null>;
  send: (form: FormData) => Promise<AutosaveAnswer>;
  run: (form: FormData) => void;
}) {
  const { on, shown, form, send, run } = opts;
  const [made, setMade] = useState<Version<S> | null>(null);
  const [answer, setAnswer] = useState<AutosaveAnswer>(null);
  const version = made && shown && made.updatedAt > shown.updatedAt ? made : shown;
  const latest = useRef(version);
  useEffect(() => void (latest.current = version), [version]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inflight = useRef<Promise<void> | null>(null);
  const noted = useRef(false);
  useEffect(() => () => clearTimeout(timer.current), []);

  const stamp = (data: FormData) => {
    const v = latest.current!;
    data.set("shown", v.shown);
    data.set("updated_at", v.updatedAt);
  };
  const save = async (snapshot: S) => {
    if (!form.current || !latest.current) return;
    const data = new FormData(form.current);
    stamp(data);
    if (noted.current) data.set("noted", "1");
    let r: AutosaveAnswer;
    try {
      r = await send(data);
    } catch {
      r = { error: "Not saved automatically: the connection failed. Your text stays here." };
    }
    if (r?.shown && r.updated_at) {
      noted.current = true;
      latest.current = { shown: r.shown, updatedAt: r.updated_at, saved: snapshot };
      setMade(latest.current);
    }
    setAnswer(r);
  };

  /** Saves `snapshot` (what the form holds now) once typing pauses; null: nothing to save. */
  const changed = (snapshot: S | null) => {
    clearTimeout(timer.current);
    if (snapshot !== null) timer.current = setTimeout(() => void (inflight.current = save(snapshot)), PAUSE_MS);
  };
  const action = async (data: FormData) => {
    clearTimeout(timer.current);
    await inflight.current;
    stamp(data);
    startTransition(() => run(data));
  };
  return on && shown ? { version, changed, action, answer } : { version, changed: () => {}, action: run, answer: undefined };
}
