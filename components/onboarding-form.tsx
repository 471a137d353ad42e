"use client";
import { useActionState, useEffect, useRef } from "react";
import type { OnboardingState } from "@/app/onboarding/actions";
import { ErrorSummary } from "./error-summary";

/** Each field's label, for the error summary's links (samplePosts is the first sample's). */
const LABELS: Record<string, [string, string]> = {
  name: ["name", "Your name"],
  timezone: ["timezone", "Time zone"],
  samplePosts: ["sample1", "Sample post 1"],
  tone: ["tone", "Tone"],
  voiceSummary: ["voiceSummary", "Your voice in one sentence"],
  niche: ["niche", "Niche"],
  traits: ["traits", "Traits"],
  pillars: ["pillars", "Content pillars"],
};

export type OnboardingValues = {
  name: string;
  timezone: string;
  samplePosts: string[];
  tone: string;
  niche: string;
  traits: string;
  voiceSummary: string;
  pillars: string;
};

type Props = {
  action: (s: OnboardingState, f: FormData) => Promise<OnboardingState>;
  values: OnboardingValues;
  zones: string[];
  csrf: string;
  next: string;
  guessZone: boolean;
};

function Field({ id, label, help, error, children }: { id: string; label: string; help?: string; error?: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id}>
        {label}
        {help ? (
          <span id={`${id}-help`} className="help">
            {help}
          </span>
        ) : null}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function OnboardingForm({ action, values: initial, zones, csrf, next, guessZone }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  // React resets a form after its action runs: refill it with what was sent.
  const v = state.values;
  const values: OnboardingValues = v ? ({ ...v, samplePosts: [v.sample1, v.sample2, v.sample3] } as OnboardingValues) : initial;
  const zone = useRef<HTMLInputElement>(null);
  // A new account starts on UTC: offer the browser's own zone instead (the server checks
  // whatever is sent).
  useEffect(() => {
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (guessZone && !v && zone.current && local && zones.includes(local)) zone.current.value = local;
  }, [guessZone, zones, v]);
  const f = state.fields ?? {};
  const a = (id: string, help = false) => ({
    id,
    name: id,
    "aria-invalid": f[id] ? true : undefined,
    "aria-describedby": [help ? `${id}-help` : "", f[id] ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined,
  });
  return (
    <form action={formAction} noValidate key={state.attempt ?? 0}>
      {state.error ? (
        <ErrorSummary
          message={state.error}
          attempt={state.attempt}
          fields={Object.entries(f).map(([k, message]) => ({ id: LABELS[k]?.[0] ?? k, label: LABELS[k]?.[1] ?? k, message }))}
        />
      ) : null}
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="next" value={next} />
      <fieldset className="stack">
        <legend>1. You</legend>
        <Field id="name" label="Your name" error={f.name}>
          <input type="text" autoComplete="name" required defaultValue={values.name} {...a("name")} />
        </Field>
        <Field
          id="timezone"
          label="Time zone"
          help="Scheduled times are shown and entered in this zone. Type to search, for example Berlin or New York."
          error={f.timezone}
        >
          {/* A searchable list: typing "berl" offers Europe/Berlin; any IANA name is accepted. */}
          <input
            ref={zone}
            type="text"
            list="timezones"
            autoComplete="off"
            spellCheck={false}
            defaultValue={values.timezone}
            required
            {...a("timezone", true)}
          />
          <datalist id="timezones">
            {zones.map((z) => (
              // Labelled with spaces too, so "New York" finds America/New_York.
              <option key={z} value={z} label={z.includes("_") ? z.replaceAll("_", " ") : undefined} />
            ))}
          </datalist>
        </Field>
      </fieldset>
      <fieldset className="stack">
        <legend>2. Your voice</legend>
        <p className="help">Paste up to three posts you wrote and liked. Assistants imitate them.</p>
        {[0, 1, 2].map((i) => (
          <Field key={i} id={`sample${i + 1}`} label={`Sample post ${i + 1}${i === 0 ? "" : " (optional)"}`} error={i === 0 ? f.samplePosts : undefined}>
            <textarea
              defaultValue={values.samplePosts[i] ?? ""}
              {...a(`sample${i + 1}`)}
              aria-invalid={i === 0 && f.samplePosts ? true : undefined}
              aria-describedby={i === 0 && f.samplePosts ? "sample1-error" : undefined}
            />
          </Field>
        ))}
        <Field id="tone" label="Tone" help="A few words, separated by commas: direct, warm, practical." error={f.tone}>
          <input type="text" defaultValue={values.tone} {...a("tone", true)} />
        </Field>
        <Field id="voiceSummary" label="Your voice in one sentence (optional)" error={f.voiceSummary}>
          <input type="text" defaultValue={values.voiceSummary} {...a("voiceSummary")} />
        </Field>
      </fieldset>
      <fieldset className="stack">
        <legend>3. What you write about</legend>
        <Field id="niche" label="Niche (optional)" help="For example: developer tooling for small teams." error={f.niche}>
          <input type="text" defaultValue={values.niche} {...a("niche", true)} />
        </Field>
        <Field id="traits" label="Traits (optional)" help="Separated by commas: short sentences, no emoji, one question at the end." error={f.traits}>
          <input type="text" defaultValue={values.traits} {...a("traits", true)} />
        </Field>
        <Field id="pillars" label="Content pillars (optional)" help={'One a line, "Name: what it covers".'} error={f.pillars}>
          <textarea defaultValue={values.pillars} {...a("pillars", true)} />
        </Field>
      </fieldset>
      <div className="actions">
        <button className="btn primary" type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save and finish"}
        </button>
      </div>
    </form>
  );
}
