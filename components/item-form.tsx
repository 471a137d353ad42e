"use client";
import { useActionState, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { useAutosave, type AutosaveAnswer } from "./use-autosave";
import type { ActionState } from "./action-form";
import { ConfirmDialog } from "./confirm-dialog";
import { useUnsavedGuard } from "./unsaved-guard";
import { ErrorSummary } from "./error-summary";
import { formatTime } from "./format";
import { networkNamed, overLimit, type NetworkName } from "@/lib/domain/networks";

/** A refusal, with the button pressed and the text as it was typed (and the version it was typed on). */
export type ItemState = (NonNullable<ActionState> & { intent?: string; typed?: { title: string; body: string; basedOn: string } }) | null;

type Props = {
  action: (prev: ItemState, form: FormData) => Promise<ItemState>;
  /** The form's CSRF token and key, the draft's updated_at and the hash of the content the page shows. */
  hidden: { csrf: string; key: string; updated_at: string; shown: string };
  /** The draft as saved: its title (posts only) and text. */
  saved: { title?: string; body: string };
  titleHelp?: string;
  when: ReactNode;
  scheduled: boolean;
  publishQuestion: string;
  /** The network whose text rule Publish now checks before its dialog (X's weighted 280, Bluesky's 300 graphemes, LinkedIn's 3,000). */
  network?: NetworkName;
  /** The owner's time zone: every time on the page is in it. */
  timeZone: string;
  /** Saves the text as the owner pauses (an unscheduled draft's page only). */
  autosave?: (form: FormData) => Promise<AutosaveAnswer>;
};

const noSave = async () => null;

/** Why `network` would refuse this text, by its own text rule, with the way out; null when it fits. */
function refusal(network: NetworkName | undefined, body: string): string | null {
  const net = network && networkNamed(network);
  const size = net && overLimit(net, body);
  if (!size) return null;
  const out = net.platform === "micro" ? "Shorten it, or split it into a thread in the composer (Edit in the composer)." : "Shorten it.";
  return `${net.name} would refuse it, so nothing was published: this ${net.postNoun} is ${size}. ${out}`;
}

/**
 * An item's editor and its actions as one form: Save, Schedule, Unschedule and Publish now all
 * send the text as typed, and the server saves it before acting. A refusal keeps the typed
 * text (React resets a form after its action: the text returns as its default value), and
 * leaving with unsaved text asks first.
 */
export function ItemForm({ action, hidden: initial, saved: initialSaved, titleHelp, when, scheduled, publishQuestion, autosave, network, timeZone }: Props) {
  // Publish now refused before its dialog: what the network would refuse cannot be confirmed.
  const [tooLong, setTooLong] = useState<{ message: string; attempt: number } | null>(null);
  const [state, run, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  const shown = useMemo(
    () => ({ shown: initial.shown, updatedAt: initial.updated_at, saved: initialSaved }),
    [initial.shown, initial.updated_at, initialSaved.title, initialSaved.body], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const { version, changed, action: submit, answer: autosaved } = useAutosave({ on: !!autosave, shown, form, send: autosave ?? noSave, run });
  const hidden = { ...initial, shown: version!.shown, updated_at: version!.updatedAt };
  const saved = version!.saved;
  const typing = () => {
    const data = new FormData(form.current!);
    const title = String(data.get("title") ?? "");
    const body = String(data.get("body") ?? "");
    const same = body === saved.body && (saved.title === undefined || title === (saved.title ?? ""));
    changed(!body.trim() || same ? null : { ...saved, body, ...(saved.title !== undefined && title.trim() && { title: title.trim() }) });
  };
  const dialog = useRef<HTMLDialogElement>(null);
  const qid = useId();
  // Typed text comes back only while the draft is the version it was typed on.
  const typed = state?.typed?.basedOn === hidden.updated_at ? state.typed : null;
  useUnsavedGuard(() => {
    const f = form.current?.elements;
    const title = f?.namedItem("title");
    const body = f?.namedItem("body");
    const titleChanged = title instanceof HTMLInputElement && !!title.value.trim() && title.value.trim() !== saved.title;
    return titleChanged || (body instanceof HTMLTextAreaElement && body.value !== saved.body);
  });
  const refused = (where: "edit" | "when") =>
    state?.error && (state.intent === "save") === (where === "edit") ? (
      <p className="error-box" role="alert">
        {state.error}
      </p>
    ) : null;

  return (
    <form ref={form} action={submit} aria-busy={pending} onInput={typing}>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {tooLong ? <ErrorSummary message={tooLong.message} attempt={tooLong.attempt} fields={[{ id: "body", label: "Shorten the text" }]} /> : null}
      <section className="card stack" aria-labelledby="edit-h">
        <h2 id="edit-h">Edit</h2>
        {saved.title !== undefined ? (
          <div>
            <label htmlFor="title">Title</label>
            <input id="title" name="title" type="text" defaultValue={typed?.title ?? saved.title} maxLength={200} aria-describedby="title-help" />
            <span className="help" id="title-help">
              {titleHelp}
            </span>
          </div>
        ) : null}
        <div>
          <label htmlFor="body">Text</label>
          <textarea
            id="body"
            name="body"
            defaultValue={typed?.body ?? saved.body}
            rows={8}
            required
            aria-describedby="body-help"
            aria-invalid={tooLong ? true : undefined}
          />
          <span className="help" id="body-help">
            Schedule and Publish now save this text first.
          </span>
        </div>
        {autosave ? (
          <p className="help" aria-live="polite">
            {autosaved?.error ??
              (autosaved?.at ? `Saved automatically at ${formatTime(new Date(autosaved.at), timeZone)}.` : "Saved automatically as you pause.")}
          </p>
        ) : null}
        {refused("edit")}
        <button type="submit" name="intent" value="save" className="btn primary" disabled={pending}>
          Save changes
        </button>
      </section>

      <section className="card stack" aria-labelledby="when-h">
        <h2 id="when-h">{scheduled ? "Reschedule" : "Schedule"}</h2>
        {when}
        {refused("when")}
        <button type="submit" name="intent" value="schedule" className="btn primary" disabled={pending}>
          {scheduled ? "Reschedule" : "Schedule"}
        </button>
        <div className="actions">
          {scheduled ? (
            <button type="submit" name="intent" value="unschedule" className="btn" disabled={pending}>
              Unschedule
            </button>
          ) : null}
          <button
            type="button"
            className="btn"
            onClick={() => {
              const body = form.current?.elements.namedItem("body");
              const problem = refusal(network, body instanceof HTMLTextAreaElement ? body.value : saved.body);
              setTooLong(problem ? { message: problem, attempt: Date.now() } : null);
              if (!problem) dialog.current?.showModal();
            }}
            disabled={pending}
          >
            Publish now
          </button>
          <ConfirmDialog dialogRef={dialog} id={qid} question={publishQuestion} confirmLabel="Publish now" submit={{ name: "intent", value: "publish" }} />
        </div>
      </section>
    </form>
  );
}
