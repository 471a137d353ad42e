// LinkedIn's "little" text format (Posts API `commentary`), read as LinkedIn documents it
// (learn.microsoft.com, Community Management > Shares > little Text Format): `\` escapes the
// next character; `#word` is a hashtag element; `{hashtag|#|word}` a hashtag template (sign
// `#` or U+FF03, escaped or not); `@[Name](urn:li:person:…)` a mention. Any other reserved
// character left unescaped ends the text LinkedIn keeps: the post is cut there. The fake
// renders a post as a reader sees it, so tests compare that with the draft.

export const RESERVED = new Set([..."\\|{}@[]()<>#*_~"]);

export type Rendered = {
  /** What a reader of the post sees. */
  text: string;
  /** Clickable hashtags, without the sign, in order. */
  hashtags: string[];
  mentions: { name: string; urn: string }[];
  /** Whether LinkedIn cut the text at an unescaped reserved character. */
  cut: boolean;
};

// A hashtag element's word: letters and digits only (`_` is reserved and must be escaped).
const HASHTAG = /^#([\p{L}\p{N}]+)/u;
const TEMPLATE = /^\{hashtag\|\\?([#＃])\|([^{}|\\]+)\}/u;
const MENTION = /^@\[([^\]\\]+)\]\((urn:li:(?:person|organization):[^)\\\s]+)\)/u;

export function renderLittle(commentary: string): Rendered {
  const out: Rendered = { text: "", hashtags: [], mentions: [], cut: false };
  let i = 0;
  while (i < commentary.length) {
    const rest = commentary.slice(i);
    const c = rest[0];
    if (c === "\\") {
      if (rest.length < 2) return { ...out, cut: true };
      const next = String.fromCodePoint(rest.codePointAt(1)!);
      out.text += next;
      i += 1 + next.length;
      continue;
    }
    const m = c === "#" ? HASHTAG.exec(rest) : c === "{" ? TEMPLATE.exec(rest) : c === "@" ? MENTION.exec(rest) : null;
    if (m && c === "#") {
      out.text += `#${m[1]}`;
      out.hashtags.push(m[1]);
    } else if (m && c === "{") {
      out.text += `${m[1]}${m[2]}`;
      out.hashtags.push(m[2]);
    } else if (m) {
      out.text += m[1];
      out.mentions.push({ name: m[1], urn: m[2] });
    } else if (RESERVED.has(c)) return { ...out, cut: true };
    else {
      out.text += c;
      i += 1;
      continue;
    }
    i += m[0].length;
  }
  return out;
}
