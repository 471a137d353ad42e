import { and, eq } from "drizzle-orm";
import { readable } from "@/lib/adapters/db/readable";
import { AppError, notFound } from "@/lib/core/errors";
import { storedMediaId } from "@/lib/core/media-url";
import { connectionState, networkFor, type NetworkName, type NetworkSpec } from "@/lib/domain/networks";
import { cashtagProblem } from "@/lib/domain/networks/x";
import { MICROS, xFactsOf } from "@/lib/domain/networks/x/pricing";
import { needsOf, scopeProblem } from "@/lib/domain/networks/scopes";
import { platformOf } from "@/lib/domain/networks/platform";
import type { Ctx } from "../context";
import type { StoredConnection } from "../ports";
import { draftTable, label, type DraftType } from "../drafts/drafts";
import { contentOf } from "../drafts/content-hash";
import { cardLink, usableCard } from "../drafts/link-card";
import { mediaInfo, type MediaInfo } from "../media/media";
import { publishingProblem } from "../accounts/health";
import { capProblem, monthBefore, onX } from "../spend/x-spend";
import { capRefusal, xChargeOf } from "../spend/x-publish";
import { finalState } from "./schedule";

// preview_publish: what publishing a draft would do, said before anyone asks the owner to
// approve it, with nothing written and nothing sent. Each fact comes from the function the
// publishing path itself applies (the state check, the connection and its scopes, the
// network's text rule, X's prices and reply rule through xFactsOf, as the approval page
// shows them, and the monthly cap), so a preview without problems is a publish_now that the
// network takes, as far as this service can know before sending.

/** What a problem or warning is about, stable for callers (preview_publish's `code`). */
export const PROBLEM_CODES = [
  "not_publishable",
  "publishing_not_allowed",
  "no_account",
  "reconnect_needed",
  "missing_scopes",
  "too_long",
  "too_many_cashtags",
  "too_many_images",
  "media_missing",
  "gif_not_alone",
  "reply_rule",
  "monthly_cap",
  "daily_limit",
  "rate_limit",
  "link_card",
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One thing that stops publishing (a problem) or may (a warning); `part`: the part it is about (its index), null for the whole draft. */
export type Finding = { code: ProblemCode; message: string; part: number | null };

type PartKind = "post" | "thread_part" | "first_comment";
type AccountOut = { account_id: string | null; name: string | null; handle: string | null; network: NetworkName; network_name: string; sandbox: boolean };
type MediaOut = { url: string; kind: "image" | "document"; alt_text: string | null; title: string | null; found: boolean };

const usd = (micros: number) => Math.round(micros) / MICROS;

/** The caller's draft without a lock (a preview changes nothing); another user's answers like a missing one. */
async function readOwn(ctx: Ctx, type: DraftType, id: string) {
  const t = draftTable(type);
  const [row] = await ctx.db
    .select(readable(t))
    .from(t)
    .where(and(eq(t.id, id), eq(t.userId, ctx.caller.userId)));
  if (!row) throw notFound(label(type));
  const c = contentOf(row);
  return { ...row, ...c, thread: c.thread ?? [], accountId: row.accountId };
}

/**
 * The connection the draft would post with (the draft's account, else the network's default),
 * or why there is none: an account that is no longer the owner's is no account at all.
 */
async function connectionOf(ctx: Ctx, type: DraftType, accountId: string | null): Promise<{ connection: StoredConnection | null; gone: string | null }> {
  try {
    return { connection: await ctx.ports.platforms.connection(ctx.db, ctx.caller.userId, platformOf(type), accountId), gone: null };
  } catch (e) {
    if (e instanceof AppError && e.code === "action_failed") return { connection: null, gone: e.message };
    throw e;
  }
}

export async function previewPublish(ctx: Ctx, input: { type: DraftType; id: string }) {
  const { type } = input;
  const d = await readOwn(ctx, type, input.id);
  const config = ctx.ports.config();
  const problems: Finding[] = [];
  const warnings: Finding[] = [];
  const problem = (code: ProblemCode, message: string, part: number | null = null) => problems.push({ code, message, part });
  const warning = (code: ProblemCode, message: string, part: number | null = null) => warnings.push({ code, message, part });

  const final = finalState(d, type, "published");
  if (final) problem("not_publishable", `${final.message} ${final.hint}`);
  if (!ctx.caller.inPerson && !ctx.caller.publishingAllowed)
    problem(
      "publishing_not_allowed",
      "The owner's switch “Allow connected apps to publish, schedule and delete” (Settings > Connections) is off, so publish_now would be refused.",
    );

  // Where it goes: the account, its network, and whether the sandbox stands in for it.
  const platform = platformOf(type);
  const { connection, gone } = await connectionOf(ctx, type, d.accountId);
  const net: NetworkSpec = networkFor(platform, connection);
  const real = ctx.ports.platforms.configured(net.id);
  const target = connection?.target ?? null;
  const account: AccountOut | null = target
    ? { account_id: target.id, name: target.name, handle: target.handle, network: net.id, network_name: net.name, sandbox: !real }
    : real
      ? null
      : { account_id: null, name: "Sandbox", handle: null, network: net.id, network_name: net.name, sandbox: true };
  if (gone) problem("no_account", gone);
  else if (real) {
    const why = await publishingProblem(ctx, platform, connection);
    if (why) problem(connectionState(connection, ctx.now()).state === "not_connected" ? "no_account" : "reconnect_needed", why);
  }

  // The parts as they are sent: the body, a thread's further parts, then the first comment.
  const texts = [d.body, ...d.thread.map((p) => p.text)];
  const partImages = [d.imageUrls.length ? d.imageUrls : d.imageUrl ? [d.imageUrl] : [], ...d.thread.map((p) => p.image_urls ?? [])];
  const urls = [...partImages.flat(), ...(d.documentUrl ? [d.documentUrl] : [])];
  const stored = await mediaInfo(
    ctx.db,
    ctx.caller.userId,
    urls.map((u) => storedMediaId(u)).filter((i): i is string => !!i),
  );
  const infoOf = (url: string): MediaInfo | undefined => {
    const id = storedMediaId(url);
    return id ? stored.get(id) : undefined;
  };
  const mediaOut = (url: string, kind: "image" | "document", title: string | null = null): MediaOut => {
    const m = infoOf(url);
    return { url, kind, alt_text: m?.altText ?? null, title, found: !!m };
  };
  const posted = d.publishProgress?.parts.length ?? 0;
  // What the adapters send: X and Bluesky take the text in NFC (LinkedIn escapes its reserved
  // characters so that the post reads exactly as written).
  const sent = (text: string) => (net.id === "linkedin" ? text : text.normalize("NFC"));
  const parts = texts.map((text, i) => ({
    index: i + 1,
    kind: (i === 0 ? "post" : "thread_part") as PartKind,
    text: sent(text),
    length: { count: net.text.count(text), max: net.text.max, unit: net.text.unit },
    media: [
      ...partImages[i].map((u) => mediaOut(u, "image")),
      ...(i === 0 && d.documentUrl ? [mediaOut(d.documentUrl, "document", d.documentTitle || infoOf(d.documentUrl)?.filename || d.title)] : []),
    ],
    already_posted: i < posted,
  }));
  const comment = d.firstComment
    ? {
        index: parts.length + 1,
        kind: "first_comment" as PartKind,
        text: sent(d.firstComment),
        length: { count: net.comment.count(d.firstComment), max: net.comment.max, unit: net.comment.unit },
        media: [] as MediaOut[],
        already_posted: false,
      }
    : null;

  // The network's text rule, part by part (X's counts the cashtags too).
  for (const p of parts) {
    const why = net.text.problem(texts[p.index - 1]);
    if (why) problem(net.id === "x" && why === cashtagProblem(texts[p.index - 1]) ? "too_many_cashtags" : "too_long", why, p.index);
  }
  if (comment && d.firstComment) {
    const why = net.comment.problem(d.firstComment);
    if (why) problem(net.id === "x" && why === cashtagProblem(d.firstComment) ? "too_many_cashtags" : "too_long", `The first comment: ${why}`, comment.index);
  }

  // Media: each still stored, within the network's count, an animated GIF alone on X.
  for (const p of parts) {
    const images = p.media.filter((m) => m.kind === "image");
    if (images.length > net.images.max)
      problem(
        "too_many_images",
        `${net.name} takes at most ${net.images.max} images a ${p.index === 1 ? "post" : "part"}; this one has ${images.length}.`,
        p.index,
      );
    for (const m of p.media)
      if (!storedMediaId(m.url))
        // An address from before uploads existed: the publisher leaves it out, as it always has.
        warning("media_missing", `${m.url} is not an upload of this service, so it is not sent.`, p.index);
      else if (!m.found) problem("media_missing", `${m.url} is no longer among the owner's uploads: upload it again and attach the new address.`, p.index);
    const animated = images.filter((m) => (infoOf(m.url)?.frames ?? 1) > 1);
    if (net.id === "x" && animated.length && images.length > 1)
      problem("gif_not_alone", "An animated GIF goes alone: a tweet carries up to 4 images or one animated GIF, not both (X's rule).", p.index);
  }

  if (real && connection) {
    const media = parts.some((p) => p.media.length > 0);
    const missing = scopeProblem(net.id, connection.scope, needsOf(media));
    if (missing) problem("missing_scopes", missing);
  }

  // X: the reply rule, the price (as the approval page says it) and the month's spend against the cap.
  const posted_ = { body: d.body, thread: d.thread.map((p) => p.text), firstComment: d.firstComment };
  const x = real && type === "tweet" ? xFactsOf({ sandbox: false, network: net.name }, "publish_now", posted_, config) : null;
  if (x?.replies) {
    const replies = [...parts.slice(1).filter((p) => !p.already_posted), ...(comment ? [comment] : [])];
    for (const p of replies) (x.replies.refused ? problem : warning)("reply_rule", x.replies.message, p.index);
  }
  let spend = null;
  const xAccount = x && onX(target) ? target : null;
  if (x && xAccount) {
    const charge = await xChargeOf(ctx.db, { ...d, type, accountId: xAccount.id }, ctx.ports);
    const refused = charge && (await capRefusal(ctx.db, charge, ctx.now()));
    const partsMicros = x.price.parts.slice(posted).reduce((s, p) => s + p.micros, 0);
    const thisPublish = partsMicros + (x.price.comment?.micros ?? 0);
    if (refused) problem("monthly_cap", `${refused}.`);
    else if (x.price.comment) {
      // The first comment is charged on its own, after the post: past the cap it alone is refused.
      const after = await capProblem(ctx.db, xAccount, thisPublish, "post", ctx.now());
      if (after) warning("monthly_cap", `The first comment would be refused, the post going out without it: ${after}.`, comment!.index);
    }
    const m = await monthBefore(ctx.db, xAccount, thisPublish, ctx.now());
    spend = {
      month: m.month,
      spent_usd: usd(m.spent),
      cap_usd: m.cap === null ? null : usd(m.cap),
      left_usd: m.left === null ? null : usd(m.left),
      after_usd: usd(m.after),
    };
  }

  // The network's own windows on posts, as its last answer stated them (X's 24-hour allowance
  // and its 15-minute window on creating posts); one whose reset has passed says nothing.
  const live = <W extends { resetsAt: string }>(w: W | null | undefined) => (real && w && Date.parse(w.resetsAt) > ctx.now().getTime() ? w : null);
  const allowance = live(connection?.postAllowance);
  const short = live(allowance?.short);
  const needed = parts.length - posted + (comment ? 1 : 0);
  for (const [code, w] of [
    ["daily_limit", allowance],
    ["rate_limit", short],
  ] as const)
    if (w && w.remaining < needed)
      warning(
        code,
        `${net.name} said it takes ${w.remaining} more post${w.remaining === 1 ? "" : "s"} from this account until ${w.resetsAt}, ` +
          `and this publish needs ${needed}: what does not fit waits for the reset.`,
      );

  // LinkedIn's link card: the stored one goes out; one not read yet is read when publishing is asked for.
  const card = type === "post" ? usableCard(d) : null;
  const link = type === "post" && real && net.id === "linkedin" ? cardLink(d) : null;
  if (link && !card) {
    if (d.linkCard?.source === link && d.linkCard.error)
      warning("link_card", `The page of ${link} could not be read (${d.linkCard.error}), so the post goes out with the bare link and no card.`, 1);
    else warning("link_card", `The card of ${link} is read from the page when publishing or scheduling is asked for, and shown for approval.`, 1);
  }

  return {
    type,
    id: d.id,
    status: d.status,
    publishable: problems.length === 0,
    account,
    parts: comment ? [...parts, comment] : parts,
    link_card: card ? { source: card.source, title: card.title, description: card.description, image: card.image } : null,
    problems,
    warnings,
    cost: x
      ? {
          estimate_usd: usd(x.price.micros),
          text: x.sentence,
          posts: [
            ...x.price.parts.map((p, i) => ({ part: i + 1, usd: usd(p.micros), has_link: p.url })),
            ...(x.price.comment && comment ? [{ part: comment.index, usd: usd(x.price.comment.micros), has_link: x.price.comment.url }] : []),
          ],
        }
      : null,
    spend,
    rate_limits: (
      [
        ["posts_24h", allowance],
        ["posts_15m", short],
      ] as const
    ).flatMap(([window, w]) => (w ? [{ window, limit: w.limit, remaining: w.remaining, resets_at: new Date(w.resetsAt).toISOString() }] : [])),
  };
}
