"use client";
import { startTransition, useEffect, useRef, useState, type RefObject } from "react";
import { autosaveComposed, type AutosaveState } from "./actions";
import type { Draft, Editing } from "./draft";

/** How long typing must pause before the texts are saved by themselves. */
const PAUSE_MS = 2000;

/** The draft's version the form acts on: its hash, its updated_at, and what it holds. */
export type Base = { shown: string; updatedAt: string; draft: Draft };

const texts = (x: Draft) => JSON.stringify([x.post, x.parts, x.comment]);
const rest = (x: Draft) => JSON.stringify([x.postAccount, x.tweetAccount, x.postMedia, x.partMedia, x.parts.length]);

/** Only texts changed, none left empty: files, descriptions, the account and the parts' number wait for Save changes. */
const onlyTexts = (was: Draft, now: Draft) =>
  rest(was) === rest(now) && texts(was) !== texts(now) && (now.toPost ? !!now.post.trim() : now.parts.every((p) => p.trim()));

/**
 * The composer on an unscheduled draft saves its texts on the server as the owner pauses, as
 * the item page does; the form then acts on the version that save made. Gives that version,
 * the form's action (which waits for a save on its way) and what the last save said.
 */
export function useServerAutosave(editing: Editing | undefined, d: Draft, form: RefObject<HTMLFormElement | null>, run: (data: FormData) => void) {
  const [base, setBase] = useState<Base | null>(editing ? { shown: editing.shown, updatedAt: editing.updatedAt, draft: editing.draft } : null);
  const [status, setStatus] = useState<AutosaveState>(null);
  const latest = useRef(base);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inflight = useRef<Promise<void> | null>(null);
  const noted = useRef(false);
  const on = !!editing?.autosave;

  const save = async (snapshot: Draft) => {
    const f = form.current;
    const b = latest.current;
    if (!f || !b) return;
    const data = new FormData(f);
    data.set("shown", b.shown);
    data.set("updated_at", b.updatedAt);
    if (noted.current) data.set("noted", "1");
    let r: AutosaveState;
    try {
      r = await autosaveComposed(data);
    } catch {
      r = { error: "Not saved automatically: the connection failed. Your text stays here." };
    }
    if (r?.shown && r.updated_at) {
      noted.current = true;
      latest.current = { shown: r.shown, updatedAt: r.updated_at, draft: snapshot };
      setBase(latest.current);
    }
    setStatus(r);
  };

  useEffect(() => {
    if (!on || !base || !onlyTexts(base.draft, d)) return;
    timer.current = setTimeout(() => void (inflight.current = save(d)), PAUSE_MS);
    return () => clearTimeout(timer.current);
    // `save` reads refs only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [d, base, on]);

  // A button pressed while a save is on its way acts on the version that save makes.
  const action = async (data: FormData) => {
    clearTimeout(timer.current);
    await inflight.current;
    const b = latest.current!;
    data.set("shown", b.shown);
    data.set("updated_at", b.updatedAt);
    startTransition(() => run(data));
  };
  return { base, action: on ? action : run, status: on ? status : undefined };
}
