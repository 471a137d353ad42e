import { MAX_TWEET_CHARS, MAX_TWEET_WEIGHT, tweetWeight } from "@/lib/domain/drafts/text";
import { servedAt } from "@/lib/core/media-url";
import { SeeMore } from "./see-more";

// Drafts drawn the way each network shows them, so the owner sees where LinkedIn folds the
// text and whether X will take it. LinkedIn's feed shows about three lines (210 characters
// on a wide screen) before "…see more".
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
};

export function PostPreview({ type, text, imageUrl, imageAlt, name, handle, sandbox, placeholder }: Props) {
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
  const weight = tweetWeight(text); // undefined: too long to weigh
  const over = weight === undefined || weight > MAX_TWEET_WEIGHT;
  return (
    <figure className="preview x" aria-label="Preview as X shows it">
      <div className="who">
        <span className="avatar" aria-hidden="true">
          {initial}
        </span>
        <span>
          <strong>{name}</strong> <span className="muted">{handle ?? "@you"}</span>
        </span>
      </div>
      {empty ?? <div className="x-text">{text}</div>}
      {/* eslint-disable-next-line @next/next/no-img-element -- the draft's own image, any size */}
      {imageUrl ? <img src={servedAt(imageUrl)} alt={imageAlt ?? "The tweet's image"} /> : null}
      <figcaption className={over ? "count over" : "count"}>
        {weight === undefined
          ? `Over ${MAX_TWEET_CHARS} characters: X will refuse it`
          : `${weight} / ${MAX_TWEET_WEIGHT} characters as X counts them${over ? `: ${weight - MAX_TWEET_WEIGHT} too many, X will refuse it` : ""}`}
      </figcaption>
    </figure>
  );
}
