"use client";
import { useActionState, useEffect, useId, useRef, useState } from "react";
import { networkNamed, overLimit, platformNames, type NetworkName, type NetworkSpec } from "@/lib/domain/networks";
import { PostPreview } from "@/components/post-preview";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ErrorSummary } from "@/components/error-summary";
import { formatTime } from "@/components/format";
import { WhenPicker } from "@/components/when-picker";
import { useUnsavedGuard } from "@/components/unsaved-guard";
import { composeAction, type ComposeState } from "./actions";
import { useServerAutosave } from "./autosave";
import { EMPTY, typed, type Draft, type Editing } from "./draft";
import { splitThread } from "@/lib/domain/drafts/split";
import { AiHelp, EditWithAi, useAssist } from "./ai-help";
import type { Allowance } from "./assist";
import { kept as keepStored, MediaPicker, type MediaLimits, type Medium } from "./media";
import { draftPrice, priceSentence, replyWarning, type PostedTexts, type XPrices } from "@/lib/domain/networks/x/pricing";

export type Target = {
  type: "post" | "tweet";
  /** The draft type's first network (LinkedIn; X for a tweet): where it goes without an account. */
  network: string;
  networkId: NetworkName;
  sandbox: boolean;
  badge: string;
  /**
   * `network`, `networkId`: the network the account is on (X or Bluesky for a tweet), whose
   * limits the composer applies; `sandbox`: the built-in sandbox stands in for it.
   */
  accounts: {
    id: string;
    label: string;
    default: boolean;
    destination: string;
    nextSlot: string | null;
    network: string;
    networkId: NetworkName;
    sandbox: boolean;
  }[];
  /** Where it goes without an account (the sandbox), or null when an account is needed. */
  fallback: string | null;
};

/** What the form sends of the files: the stored ones, in order, with their descriptions. */
const mediaField = (d: Draft) => {
  const one = (m: Medium) => ({ url: m.url!, alt: m.alt, ...(m.kind === "pdf" && { pdf: true, title: m.title ?? m.name.replace(/\.pdf$/i, "") }) });
  return JSON.stringify({ post: keepStored(d.postMedia).map(one), parts: d.parts.map((_, i) => keepStored(d.partMedia[i]).map(one)) });
};

/** The first stored image of a list, for the preview. */
const firstImage = (list: Medium[] | undefined) => (list ?? []).find((m) => m.url && m.kind === "image");

/** One part's count as its network counts it (X's weighted characters, Bluesky's graphemes), in words. */
function Count({ text, id, net }: { text: string; id: string; net: NetworkSpec }) {
  const { count, max, problem } = net.text;
  const n = count(text);
  const why = n > max ? `: ${n - max} too many for ${net.name}` : problem(text) ? `: ${net.name} would refuse it` : "";
  return (
    <span id={id} className={why ? "count over" : "count"}>
      {n} / {max}
      {why}
    </span>
  );
}

/**
 * Where a target's drafts can go, as its checkbox says it: its accounts' networks, real ones
 * first ("X", "Bluesky or sandbox for X"), the sandbox never called by the network's name alone.
 */
function placesOf(t: Target): string {
  const place = (network: string, sandbox: boolean) => (sandbox ? `Sandbox for ${network}` : network);
  const accounts = [...t.accounts].sort((a, b) => Number(a.sandbox) - Number(b.sandbox));
  const places = accounts.length ? [...new Set(accounts.map((a) => place(a.network, a.sandbox)))] : [place(t.network, t.sandbox)];
  return places.map((p, i) => (i ? p.replace(/^Sandbox/, "sandbox") : p)).join(" or ");
}

/** The composer's fields by id, as the error summary names them (`noun`: what the tweet's network calls a post). */
function fieldLabel(id: string, noun = "tweet") {
  const part = /^part-(\d+)$/.exec(id);
  if (part) return part[1] === "0" ? `The ${noun}'s text` : `Part ${Number(part[1]) + 1} of the thread`;
  return ({ post_body: "The post's text", time: "The time", first_comment: "The first comment" } as Record<string, string>)[id] ?? id;
}

type Refusal = { message: string; fields: { id: string; label: string }[]; split: boolean };

/**
 * What the networks would refuse of the chosen texts, before Publish now asks to confirm: a
 * tweet part past its network's limit (X's 280 as X counts them, Bluesky's 300 graphemes), or a
 * post past LinkedIn's 3,000, each by the network's own text rule.
 */
function wouldRefuse(d: Draft, tweetNet: NetworkSpec): Refusal | null {
  if (d.toTweet) {
    const over = d.parts.map((p, i) => ({ i, size: overLimit(tweetNet, p) })).filter(({ size }) => size);
    if (over.length) {
      const { i, size } = over[0];
      const what = d.parts.length > 1 ? `Part ${i + 1} of the thread` : `This ${tweetNet.postNoun}`;
      return {
        message: `${tweetNet.name} would refuse it, so nothing was published: ${what} is ${size}. Split it into a thread, or shorten it.`,
        fields: over.map(({ i }) => ({ id: `part-${i}`, label: `Shorten ${fieldLabel(`part-${i}`, tweetNet.postNoun).toLowerCase()}` })),
        split: true,
      };
    }
  }
  const linkedin = networkNamed("linkedin");
  const size = d.toPost && overLimit(linkedin, d.post);
  if (size)
    return {
      message: `${linkedin.name} would refuse it, so nothing was published: the post is ${size}. Shorten it.`,
      fields: [{ id: "post_body", label: "Shorten the post's text" }],
      split: false,
    };
  return null;
}

export type ComposerProps = {
  userId: string;
  name: string;
  csrf: string;
  /** The form's key, made when the page was drawn (a new one after each answer): a second press of a button answers as the first. */
  formKey: string;
  targets: Target[];
  when: { date: string; time: string; today: string; timeZone: string };
  limits: { post: MediaLimits; tweet: MediaLimits };
  model: string | null;
  allowance: Allowance;
  /** X's prices (X_PRICES) and whether X takes this app's replies (X_REPLIES): said beside a tweet going to X. */
  x: { prices: XPrices; replies: "unknown" | "allowed" | "refused" };
};

/** What a tweet to X costs and what X may refuse of it, said as the owner types (the approval page says the same). */
function XNote({ texts, x }: { texts: PostedTexts; x: ComposerProps["x"] }) {
  if (!texts.body.trim()) return null;
  const price = priceSentence(draftPrice(texts, x.prices));
  const warning = replyWarning(texts, x.replies);
  return (
    <p className="muted" data-testid="x-cost" aria-live="polite">
      {price[0].toUpperCase() + price.slice(1)}.{warning ? ` ${warning}` : ""}
    </p>
  );
}

/**
 * The composer, for a new draft or, with `editing`, one that exists. What is typed is kept in
 * this browser (localStorage) until it is saved, so a reload or a dropped connection loses
 * nothing, and leaving with unsaved text asks first.
 */
export function Composer({ userId, name, csrf, formKey, targets, when, limits, model, allowance, x, editing }: ComposerProps & { editing?: Editing }) {
  const key = editing ? `contentio:write:${userId}:${editing.id}` : `contentio:write:${userId}`;
  const start = editing?.draft ?? EMPTY;
  const [d, setD] = useState<Draft>(start);
  const [restored, setRestored] = useState<"same" | "older" | null>(null);
  const [state, run, pending] = useActionState<ComposeState, FormData>(composeAction, null);
  // Publish now refused before its dialog (wouldRefuse), until the text changes or it is pressed again.
  const [refused, setRefused] = useState<(Refusal & { attempt: object }) | null>(null);
  // A submission sent before the answer to the first (a double press) carries the first one's
  // key; once an answer is in, the next press is a new request.
  const [submitKey, setSubmitKey] = useState(formKey);
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => void (state && setSubmitKey(crypto.randomUUID())), [state]);
  const formRef = useRef<HTMLFormElement>(null);
  const { base, action, status } = useServerAutosave(editing, d, formRef, run);
  // Unsaved: anything typed in a new draft; any change to one being edited since its last save.
  const unsaved = (x: Draft) => (base ? JSON.stringify(x) !== JSON.stringify(base.saved) : typed(x));
  const done = useRef(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const qid = useId();
  const [post, tweet] = targets;
  const set = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));
  const assist = useAssist(csrf, allowance);
  // What the last AI change replaced, for its undo: nothing typed is lost to the model either.
  const [beforeAi, setBeforeAi] = useState<Draft | null>(null);
  const byAi = (patch: Partial<Draft>) => {
    setBeforeAi(d);
    set(patch);
  };

  // Restored once, after the first render (the server knows nothing of this browser's copy).
  useEffect(() => {
    try {
      const kept = JSON.parse(localStorage.getItem(key) ?? "null") as (Draft & { basedOn?: string }) | null;
      const keptMedia = (list: Medium[] | undefined) => (Array.isArray(list) ? keepStored(list) : []);
      if (kept && typed(kept)) {
        // Syncing from an external store (this browser's copy) once, after hydration.
        const parts = kept.parts?.length ? kept.parts : [""];
        const { basedOn, ...draft } = kept;
        const base = editing ? { ...draft, toPost: editing.type === "post", toTweet: editing.type === "tweet" } : draft;
        // eslint-disable-next-line react-hooks/set-state-in-effect
        setD({ ...EMPTY, ...base, parts, postMedia: keptMedia(kept.postMedia), partMedia: parts.map((_, i) => keptMedia(kept.partMedia?.[i])) });
        // Typed on an older version of the draft (an app may have changed it since).
        setRestored(editing && basedOn !== editing.updatedAt ? "older" : "same");
      }
    } catch {
      // Nothing usable kept.
    }
    // Once, on the page's first render: `editing` is the version this page showed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  useEffect(() => {
    if (done.current) return;
    if (unsaved(d)) localStorage.setItem(key, JSON.stringify({ ...d, basedOn: base?.updatedAt }));
    else localStorage.removeItem(key);
    // `unsaved` reads only `base`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [d, key, base]);
  // Saved: the copy in this browser is no longer needed; the drafts' page takes over.
  useEffect(() => {
    if (!state?.to && !state?.saved?.length) return;
    done.current = true;
    localStorage.removeItem(key);
    if (state.to) window.location.assign(state.to);
  }, [state, key]);
  useUnsavedGuard(() => !done.current && unsaved(d));

  const accountOf = (t: Target, chosen: string) => t.accounts.find((a) => a.id === chosen) ?? t.accounts.find((a) => a.default) ?? t.accounts[0];
  const where = [d.toPost && post, d.toTweet && tweet]
    .filter((t): t is Target => !!t)
    .map((t) => accountOf(t, t.type === "post" ? d.postAccount : d.tweetAccount)?.destination ?? t.fallback ?? t.network);
  const chosen = [d.toPost && post, d.toTweet && tweet].filter((t): t is Target => !!t);
  // Each chosen account's next free slot: the queue takes the post only when every one has one.
  const slots = chosen.map((t) => ({ t, slot: accountOf(t, t.type === "post" ? d.postAccount : d.tweetAccount)?.nextSlot ?? null }));
  const queueable = slots.length > 0 && slots.every((s) => s.slot);
  // Saved, but the next step was refused: the drafts exist, so the form must not make them again.
  const finished = !!state?.saved?.length;
  const handle = (t: Target, chosen: string) => accountOf(t, chosen)?.label ?? null;
  // The tweet's network is its account's (X or Bluesky): its limits, words and preview.
  const tweetTo = tweet && accountOf(tweet, d.tweetAccount);
  const tweetNet = networkNamed(tweetTo?.networkId ?? tweet?.networkId ?? "x");
  const tweetSandbox = tweetTo ? tweetTo.sandbox : !!tweet?.sandbox;
  // How the page names it: "tweet", or "Bluesky post" (apart from the LinkedIn post beside it).
  const tweetWhat = tweetNet.postNoun === "tweet" ? "tweet" : `${tweetNet.name} ${tweetNet.postNoun}`;
  const setPart = (i: number, text: string) => set({ parts: d.parts.map((p, k) => (k === i ? text : p)) });
  const swap = <T,>(list: T[], i: number, by: number) => {
    const next = [...list];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    return next;
  };
  const move = (i: number, by: number) => set({ parts: swap(d.parts, i, by), partMedia: swap(d.partMedia, i, by) });
  // Functional: an upload's progress arrives after other changes.
  const changePostMedia = (f: (m: Medium[]) => Medium[]) => setD((old) => ({ ...old, postMedia: f(old.postMedia) }));
  const changePartMedia = (i: number) => (f: (m: Medium[]) => Medium[]) =>
    setD((old) => ({ ...old, partMedia: old.parts.map((_, k) => (k === i ? f(old.partMedia[k] ?? []) : (old.partMedia[k] ?? []))) }));

  const splitTweet = () => {
    const parts = splitThread(d.parts.join("\n\n"), tweetNet.text).slice(0, 25);
    set({ parts, partMedia: parts.map((_, i) => (i === 0 ? (d.partMedia[0] ?? []) : [])) });
    setRefused(null);
  };
  // Publish now cannot be undone, so what the network would refuse is said before its dialog, with the way out.
  const publishNow = () => {
    const problem = wouldRefuse(d, tweetNet);
    // A new object each press: the summary takes the focus again.
    if (problem) return setRefused({ ...problem, attempt: {} });
    setRefused(null);
    dialog.current?.showModal();
  };
  const invalid = (id: string) => (refused?.fields.some((f) => f.id === id) || state?.fields?.includes(id) ? true : undefined);

  return (
    <form ref={formRef} action={action} onSubmit={() => setRefused(null)} aria-busy={pending} className="composer">
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="key" value={submitKey} />
      <input type="hidden" name="thread" value={JSON.stringify(d.parts)} />
      <input type="hidden" name="media" value={mediaField(d)} />
      {editing ? (
        <>
          <input type="hidden" name="edit" value={`${editing.type}:${editing.id}`} />
          <input type="hidden" name="shown" value={base?.shown} />
          <input type="hidden" name="updated_at" value={base?.updatedAt} />
          <input type="hidden" name="account_was" value={editing.accountWas} />
        </>
      ) : null}
      {restored ? (
        <p className={restored === "older" ? "error-box" : "ok-box"} role="status">
          {restored === "older"
            ? "Restored what you were writing here before, on an older version of this draft: it has changed since. Check the text before you save it."
            : "Restored what you were writing here before."}
        </p>
      ) : null}
      {refused ? (
        <ErrorSummary message={refused.message} fields={refused.fields} attempt={refused.attempt}>
          {refused.split ? (
            <div className="actions">
              <button type="button" className="btn" onClick={splitTweet}>
                Split into a thread
              </button>
            </div>
          ) : null}
        </ErrorSummary>
      ) : state?.error ? (
        <ErrorSummary message={state.error} fields={(state.fields ?? []).map((id) => ({ id, label: fieldLabel(id, tweetNet.postNoun) }))} attempt={state}>
          {state.saved?.length ? (
            <p>
              {state.saved.map((s) => (
                <a key={s.id} href={`/content/${s.type}/${s.id}`}>
                  Open the saved {s.type}.{" "}
                </a>
              ))}
            </p>
          ) : null}
        </ErrorSummary>
      ) : null}

      <fieldset>
        <legend>{editing ? "Posted to" : "Post to"}</legend>
        {targets
          .filter((t) => !editing || t.type === editing.type)
          .map((t) => {
            const on = t.type === "post" ? d.toPost : d.toTweet;
            const value = t.type === "post" ? d.postAccount : d.tweetAccount;
            const label = placesOf(t);
            return (
              <div key={t.type} className="target">
                {/* An edit stays where the draft is: only its account can change. */}
                {editing ? (
                  <span>{label}</span>
                ) : (
                  <label className="check">
                    <input
                      type="checkbox"
                      name={`to_${t.type}`}
                      checked={on}
                      onChange={(e) => set(t.type === "post" ? { toPost: e.target.checked } : { toTweet: e.target.checked })}
                    />{" "}
                    {label}
                  </label>
                )}
                {on && t.accounts.length > 1 ? (
                  <select
                    name={`${t.type}_account`}
                    aria-label={`${platformNames(networkNamed(t.networkId).platform)} account`}
                    value={value}
                    onChange={(e) => set(t.type === "post" ? { postAccount: e.target.value } : { tweetAccount: e.target.value })}
                  >
                    {t.accounts.map((a) => (
                      <option key={a.id} value={a.default ? "" : a.id}>
                        {a.label}
                        {a.default ? " (default)" : ""}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input type="hidden" name={`${t.type}_account`} value={value} />
                )}
              </div>
            );
          })}
      </fieldset>

      <AiHelp
        assist={assist}
        model={model}
        formats={[
          ...(d.toPost ? [{ format: "post" as const, label: "post", account: d.postAccount }] : []),
          ...(d.toTweet ? [{ format: "tweet" as const, label: tweetWhat, account: d.tweetAccount }] : []),
        ]}
        write={(format, parts) => byAi(format === "post" ? { post: parts[0] } : { parts: [parts[0]], partMedia: [d.partMedia[0] ?? []] })}
        undo={
          beforeAi
            ? () => {
                setD(beforeAi);
                setBeforeAi(null);
              }
            : null
        }
      />

      {d.toPost ? (
        <section className="card compose-row" aria-labelledby="post-h">
          <div className="stack">
            <h2 id="post-h">{post.sandbox ? post.badge : `${post.network} post`}</h2>
            <label htmlFor="post_body">Text</label>
            <textarea
              id="post_body"
              name="post_body"
              rows={10}
              value={d.post}
              onChange={(e) => set({ post: e.target.value })}
              aria-describedby="post-count"
              aria-invalid={invalid("post_body")}
            />
            <span className="help" id="post-count">
              {Array.from(d.post).length} / 3000 characters. The preview marks where LinkedIn folds the text behind “…see more”.
            </span>
            <EditWithAi assist={assist} format="post" account={d.postAccount} text={d.post} label="the post" replace={(t) => byAi({ post: t })} />
            <MediaPicker label="the post" items={d.postMedia} change={changePostMedia} limits={limits.post} csrf={csrf} />
          </div>
          <PostPreview
            type="post"
            text={d.post}
            placeholder="Your post appears here as you type."
            imageUrl={firstImage(d.postMedia)?.url ?? null}
            imageAlt={firstImage(d.postMedia)?.alt || null}
            name={name}
            handle={handle(post, d.postAccount)}
            sandbox={post.sandbox}
          />
        </section>
      ) : null}

      {d.toTweet ? (
        <section className="card" aria-labelledby="tweet-h">
          <h2 id="tweet-h">
            {tweetSandbox ? `${tweet.badge}${d.parts.length > 1 ? " (thread)" : ""}` : `${tweetNet.name} ${d.parts.length > 1 ? "thread" : tweetNet.postNoun}`}
          </h2>
          <div className="actions">
            {d.toPost ? (
              <button type="button" className="btn" onClick={() => set({ parts: [d.post], partMedia: [d.partMedia[0] ?? []] })}>
                Use the post&apos;s text
              </button>
            ) : null}
            <button type="button" className="btn" onClick={splitTweet}>
              Split into a thread
            </button>
            <button
              type="button"
              className="btn"
              disabled={!!assist.busy || !(d.parts.join("").trim() || d.post.trim())}
              onClick={async () => {
                const text = d.parts.join("\n\n").trim() || d.post;
                const parts = await assist.call("Writing the thread", {
                  action: "thread",
                  text,
                  parts: text.length > 600 ? "5" : "3",
                  account_id: d.tweetAccount,
                });
                if (parts) byAi({ parts, partMedia: parts.map((_, i) => (i === 0 ? (d.partMedia[0] ?? []) : [])) });
              }}
            >
              Turn into a thread with AI
            </button>
          </div>
          <ol className="thread-editor">
            {d.parts.map((p, i) => (
              <li key={i} className="compose-row" aria-label={`Part ${i + 1} of ${d.parts.length}`}>
                <div className="stack">
                  <label htmlFor={`part-${i}`}>{d.parts.length > 1 ? `Part ${i + 1}` : "Text"}</label>
                  <textarea
                    id={`part-${i}`}
                    rows={4}
                    value={p}
                    onChange={(e) => setPart(i, e.target.value)}
                    aria-describedby={`count-${i}`}
                    aria-invalid={invalid(`part-${i}`)}
                  />
                  <Count text={p} id={`count-${i}`} net={tweetNet} />
                  <EditWithAi
                    assist={assist}
                    format="tweet"
                    account={d.tweetAccount}
                    text={p}
                    label={d.parts.length > 1 ? `part ${i + 1}` : `the ${tweetWhat}`}
                    replace={(t) => byAi({ parts: d.parts.map((x, k) => (k === i ? t : x)) })}
                  />
                  <MediaPicker
                    label={d.parts.length > 1 ? `part ${i + 1}` : `the ${tweetWhat}`}
                    items={d.partMedia[i] ?? []}
                    change={changePartMedia(i)}
                    limits={{ ...limits.tweet, images: tweetNet.images.max }}
                    csrf={csrf}
                  />
                  <div className="actions">
                    {i > 0 ? (
                      <button type="button" className="btn" onClick={() => move(i, -1)} aria-label={`Move part ${i + 1} up`}>
                        Up
                      </button>
                    ) : null}
                    {i < d.parts.length - 1 ? (
                      <button type="button" className="btn" onClick={() => move(i, 1)} aria-label={`Move part ${i + 1} down`}>
                        Down
                      </button>
                    ) : null}
                    {d.parts.length > 1 ? (
                      <button
                        type="button"
                        className="btn"
                        onClick={() => set({ parts: d.parts.filter((_, k) => k !== i), partMedia: d.partMedia.filter((_, k) => k !== i) })}
                        aria-label={`Remove part ${i + 1}`}
                      >
                        Remove
                      </button>
                    ) : null}
                  </div>
                </div>
                <PostPreview
                  type="tweet"
                  text={p}
                  placeholder={`Your ${tweetWhat} appears here as you type.`}
                  imageUrl={firstImage(d.partMedia[i])?.url ?? null}
                  imageAlt={firstImage(d.partMedia[i])?.alt || null}
                  name={name}
                  handle={handle(tweet, d.tweetAccount)}
                  network={tweetNet.id}
                />
              </li>
            ))}
          </ol>
          {d.parts.length < 25 ? (
            <button type="button" className="btn" onClick={() => set({ parts: [...d.parts, ""], partMedia: [...d.partMedia, []] })}>
              Add a part
            </button>
          ) : null}
          {!tweetSandbox && tweetNet.id === "x" ? (
            <XNote texts={{ body: d.parts[0] ?? "", thread: d.parts.slice(1).filter((p) => p.trim()), firstComment: d.comment.trim() || null }} x={x} />
          ) : null}
        </section>
      ) : null}

      <section className="card stack" aria-labelledby="comment-h">
        <h2 id="comment-h">First comment</h2>
        <label htmlFor="first_comment">Posted right after {d.toPost ? "the post" : `the ${tweetWhat}`} (optional)</label>
        <textarea
          id="first_comment"
          name="first_comment"
          rows={2}
          value={d.comment}
          onChange={(e) => set({ comment: e.target.value })}
          aria-invalid={invalid("first_comment")}
        />
      </section>

      {finished ? null : (
        <section className="card stack" aria-labelledby="finish-h">
          <h2 id="finish-h">Finish</h2>
          {status !== undefined ? (
            <p className="help" aria-live="polite">
              {status?.error ??
                (status?.at
                  ? `Text saved automatically at ${formatTime(new Date(status.at), when.timeZone)}.`
                  : "Text saves itself as you pause; files, descriptions and the account when you press Save changes.")}
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" id="save-draft" name="intent" value="save" className="btn primary" disabled={pending}>
              {editing ? "Save changes" : "Save draft"}
            </button>
            {queueable ? (
              <button type="submit" name="intent" value="queue" className="btn" disabled={pending} aria-describedby="queue-slot">
                Add to queue
              </button>
            ) : null}
            <button type="button" className="btn" onClick={publishNow} disabled={pending}>
              Publish now
            </button>
            <ConfirmDialog
              dialogRef={dialog}
              id={qid}
              question={`Publish to ${where.join(" and ")} now? It cannot be undone.`}
              confirmLabel="Publish now"
              submit={{ name: "intent", value: "publish" }}
            />
          </div>
          {queueable ? (
            <p className="help" id="queue-slot">
              The queue puts it in the next free slot: {slots.map((s) => (slots.length > 1 ? `${s.t.network} ${s.slot}` : s.slot)).join("; ")}.
            </p>
          ) : (
            <p className="help">
              {chosen.some((t) => !t.accounts.length)
                ? "The queue belongs to a connected account: connect one in Settings > Connections to use it."
                : "No free queue slot: set the account's slots on the Queue page to use it."}
            </p>
          )}
          <details open={invalid("time") || undefined}>
            <summary>Schedule for…</summary>
            <WhenPicker date={when.date} time={when.time} today={when.today} timeZone={when.timeZone} invalid={invalid("time")} />
            <button type="submit" name="intent" value="schedule" className="btn primary" disabled={pending}>
              Schedule
            </button>
          </details>
        </section>
      )}
    </form>
  );
}
