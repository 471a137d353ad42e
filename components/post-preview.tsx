import { servedAt } from "@/lib/core/media-url";
import { networkOf } from "@/lib/domain/networks/destination";
import { SeeMore } from "./see-more";

// Drafts drawn the way each network shows them, so the owner sees where LinkedIn folds the
// text and whether X or Bluesky will take it (counted by the network's own text rule).
// LinkedIn's feed shows about three lines (210 characters on a wide screen) before "…see more".
const LI_FOLD_LINES = 3;
const LI_FOLD_CHARS = 210;

export function linkedInFold(text: string): string | null {
  const lines = text.split("\n");
  let head = lines.slice(0, LI_FOLD_LINES).join("\n");
  const chars = Array.from(head);
  if (chars.length > LI_FOLD_CHARS) head = chars.slice(0, LI_FOLD_CHARS).join("");
  return head.length < text.length ? head.trimEnd() : null;
}

type Props = {
  type: "post" | "tweet";
  text: string;
  imageUrl: string | null;
  imageAlt?: string | null;
  name: string;
  handle: string | null;
  /** It goes to the built-in sandbox: drawn as LinkedIn would show it, never said to be there. */
  sandbox?: boolean;
  /** Shown while the text is empty; never counted as the draft's text. */
  placeholder?: string;
  /** A tweet's network (its account's, by its own name): X or Bluesky; X when not given. */
  network?: string | null;
};

export function PostPreview({ type, text, imageUrl, imageAlt, name, handle, sandbox, placeholder, network }: Props) {
  const initial = (name.trim()[0] ?? "?").toUpperCase();
  const empty = !text && placeholder ? <div className="muted">{placeholder}</div> : null;
  if (type === "post") {
    const head = linkedInFold(text);
    return (
      <figure className="preview li" aria-label="Preview as LinkedIn shows it">
        <div className="who">
          <span className="avatar" aria-hidden="true">
            {initial}
          </span>
          <span>
            <strong>{name}</strong>
            <br />
            <span className="muted">{sandbox ? "Now · sandbox, drawn as LinkedIn shows it" : "Now · LinkedIn"}</span>
          </span>
        </div>
        {empty ?? (head ? <SeeMore head={head} full={text} /> : <div className="li-text">{text}</div>)}
        {/* eslint-disable-next-line @next/next/no-img-element -- the draft's own image, any size */}
        {imageUrl ? <img src={servedAt(imageUrl)} alt={imageAlt ?? "The post's image"} /> : null}
      </figure>
    );
  }
  const net = networkOf("tweet", network);
  const n = net.text.count(text);
  const problem = net.text.problem(text);
  const what = net.postNoun;
  return (
    <figure className={`preview ${net.id}`} aria-label={`Preview as ${net.name} shows it`}>
      <div className="who">
        <span className="avatar" aria-hidden="true">
          {initial}
        </span>
        <span>
          <strong>{name}</strong> <span className="muted">{handle ?? "@you"}</span>
          {net.id === "bluesky" ? <span className="muted"> · now</span> : null}
        </span>
      </div>
      {empty ?? <div className="x-text">{text}</div>}
      {/* eslint-disable-next-line @next/next/no-img-element -- the draft's own image, any size */}
      {imageUrl ? <img src={servedAt(imageUrl)} alt={imageAlt ?? `The ${what}'s image`} /> : null}
      <figcaption className={problem ? "count over" : "count"}>
        {n} / {net.text.max} {net.text.unit}
        {n > net.text.max ? `: ${n - net.text.max} too many, ${net.name} will refuse it` : problem ? `: ${net.name} will refuse it (${problem})` : ""}
      </figcaption>
    </figure>
  );
}
