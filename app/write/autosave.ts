"use client";
import { useEffect, useMemo, type RefObject } from "react";
import { useAutosave, type Version } from "@/components/use-autosave";
import { autosaveComposed } from "./actions";
import type { Draft, Editing } from "./draft";

const texts = (x: Draft) => JSON.stringify([x.post, x.parts, x.comment]);
const rest = (x: Draft) => JSON.stringify([x.postAccount, x.tweetAccount, x.postMedia, x.partMedia, x.parts.length]);

/** Only texts changed, none left empty: files, descriptions, the account and the parts' number wait for Save changes. */
const onlyTexts = (was: Draft, now: Draft) =>
  rest(was) === rest(now) && texts(was) !== texts(now) && (now.toPost ? !!now.post.trim() : now.parts.every((p) => p.trim()));

/**
 * The composer on an unscheduled draft saves its texts on the server as the owner pauses, as
 * the item page does. Gives the version the form acts on, the form's action and what the
 * last save said.
 */
export function useServerAutosave(editing: Editing | undefined, d: Draft, form: RefObject<HTMLFormElement | null>, run: (data: FormData) => void) {
  const shown = useMemo<Version<Draft> | null>(
    () => (editing ? { shown: editing.shown, updatedAt: editing.updatedAt, saved: editing.draft } : null),
    [editing?.shown, editing?.updatedAt, editing?.draft], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const { version, changed, action, answer } = useAutosave({ on: !!editing?.autosave, shown, form, send: autosaveComposed, run });
  useEffect(() => {
    changed(version && onlyTexts(version.saved, d) ? d : null);
    // `changed` reads refs only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [d, version]);
  return { base: version, action, status: answer };
}
