"use client";
import { useState } from "react";
import { assistAction, type Allowance, type AssistState } from "./assist";

// The composer's AI help: one call at a time, its refusal and the allowance left shown once
// for the whole page. What it writes replaces the editor's text, with an undo.

export type Assist = {
  busy: string | null;
  error: string | null;
  left: Allowance;
  /** Runs `fields` (assist.ts's input) as `what` ("Shortening the post"); the parts, or null when refused. */
  call: (what: string, fields: Record<string, string>) => Promise<string[] | null>;
};

export function useAssist(csrf: string, initial: Allowance): Assist {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [left, setLeft] = useState(initial);
  const call = async (what: string, fields: Record<string, string>) => {
    const form = new FormData();
    form.set("csrf", csrf);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    setBusy(what);
    setError(null);
    let r: AssistState;
    try {
      r = await assistAction(form);
    } catch {
      r = { error: "The connection failed: press again." };
    }
    setBusy(null);
    if (r.left) setLeft(r.left);
    if (r.error || !r.parts) setError(r.error ?? "Nothing came back: press again.");
    return r.parts ?? null;
  };
  return { busy, error, left, call };
}

/** "Write with AI": a topic and wishes, written into the post or the tweet. */
export function AiHelp({
  assist,
  model,
  formats,
  write,
  undo,
}: {
  assist: Assist;
  /** The configured model's name, or null for the built-in offline composer. */
  model: string | null;
  /** `account`: the account chosen for it (its network's limit applies), "" for the default. */
  formats: { format: "post" | "tweet"; label: string; account: string }[];
  write: (format: "post" | "tweet", parts: string[]) => void;
  undo: (() => void) | null;
}) {
  const [topic, setTopic] = useState("");
  const [instructions, setInstructions] = useState("");
  return (
    <section className="card stack ai-help" aria-labelledby="ai-h">
      <h2 id="ai-h">Write with AI</h2>
      <p className="help">
        {model ? (
          <>
            Written by the model {model}, in your voice. Each press uses your plan: {assist.left.posts} posts and {assist.left.aiActions} AI actions left this
            month.
          </>
        ) : (
          <>
            No AI model is configured, so a built-in offline starter writes a template from your topic and voice (it does not follow wishes) for you to edit. It
            costs nothing from your plan. To write with a model, whoever runs the service sets <code>OPENAI_API_KEY</code> (and <code>AI_MODEL</code>).
          </>
        )}
      </p>
      <label htmlFor="ai_topic">What it is about</label>
      <textarea id="ai_topic" rows={2} maxLength={2000} value={topic} onChange={(e) => setTopic(e.target.value)} />
      <label htmlFor="ai_instructions">Wishes for angle, length or style (optional)</label>
      <input id="ai_instructions" type="text" maxLength={2000} value={instructions} onChange={(e) => setInstructions(e.target.value)} />
      <div className="actions">
        {formats.map((f) => (
          <button
            key={f.format}
            type="button"
            className="btn"
            disabled={!!assist.busy}
            onClick={async () => {
              const parts = await assist.call(`Writing the ${f.label}`, { action: "write", format: f.format, topic, instructions, account_id: f.account });
              if (parts) write(f.format, parts);
            }}
          >
            Write the {f.label}
          </button>
        ))}
        {undo ? (
          <button type="button" className="btn" onClick={undo}>
            Undo the AI change
          </button>
        ) : null}
      </div>
      <p aria-live="polite" className="help">
        {assist.busy ? `${assist.busy}…` : ""}
      </p>
      {assist.error ? (
        <p className="error-box" role="alert">
          {assist.error}
        </p>
      ) : null}
    </section>
  );
}

/** Shorten and rewrite of one editor's text. */
export function EditWithAi({
  assist,
  format,
  account,
  text,
  label,
  replace,
}: {
  assist: Assist;
  format: "post" | "tweet";
  /** The account chosen for the text ("" for the default): written within its network's limit. */
  account: string;
  text: string;
  label: string;
  replace: (t: string) => void;
}) {
  const run = async (action: "shorten" | "rewrite", what: string) => {
    const parts = await assist.call(`${what} ${label}`, { action, format, text, account_id: account });
    if (parts?.[0]) replace(parts[0]);
  };
  return (
    <div className="actions" role="group" aria-label={`AI help for ${label}`}>
      <button type="button" className="btn" disabled={!!assist.busy || !text.trim()} onClick={() => run("shorten", "Shortening")}>
        Shorten
      </button>
      <button type="button" className="btn" disabled={!!assist.busy || !text.trim()} onClick={() => run("rewrite", "Rewriting")}>
        Rewrite in my voice
      </button>
    </div>
  );
}
