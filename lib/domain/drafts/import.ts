import { and, desc, eq, inArray } from "drizzle-orm";
import { AppError, invalid, notFound, type ErrorDetail } from "@/lib/core/errors";
import { draftImports, postDrafts, tweetDrafts, type ImportedDraft } from "@/drizzle/schema";
import { networkFor, networkNamed, type NetworkName } from "@/lib/domain/networks";
import type { Ctx } from "../context";
import { sha256 } from "../hash";
import { accountFor, listAccounts, type PublishingAccount } from "../accounts/accounts";
import { checkMediaRefs } from "../media/draft-media";
import { removeMedia } from "../media/media";
import { requireSchedulable, scheduleContent } from "../publishing/schedule";
import { refusalOf, type Refusal } from "../publishing/steps";
import { freeSlots, leadFrom, queueOf } from "../queue/queue";
import { draftDeleted } from "../webhooks/domain-events";
import { contentHashOf } from "./content-hash";
import { describeAll, withImages, type Alt } from "./compose";
import { createDraft, draftTable, loadOwn, type CreateDraftInput, type DraftType } from "./drafts";
import { requireFits } from "./fit";
import { forget } from "./history";
import { fetchOutside, imagesOf, isOutside, outsideUses, overCap, withoutOutside } from "./import-images";

// Many drafts at once, from an app's rows (import_drafts) or the owner's spreadsheet (the
// Import page): every row is checked as create_draft checks a draft, and a refusal names each
// bad row by its number (1-based, as a spreadsheet counts them) and stores nothing. An import
// is kept as one record (draft_imports) so that it is undone as one.

/** Rows one import takes: a season of posts, not a bulk channel. */
export const MAX_IMPORT_ROWS = 200;

/** A row as its operation's schema left it: the draft create_draft would be given, and the time the row asks for. */
export type ImportRow = { row: number; network: NetworkName; draft: CreateDraftInput; scheduledFor: Date | null };

/** A row planned: the account it goes to (null: the network's default) and when it is to go out, if known. */
export type PlannedRow = ImportRow & { accountId: string | null; at: Date | null };

/** Where create_draft's fields are in a row: its body is the row's text. */
const FIELD: Record<string, string> = { body: "text" };

/** A problem of row `row` (1-based) as a detail of the error: the path is the request's (0-based), the message names the row. */
export function rowProblem(row: number, field: string, message: string): ErrorDetail {
  const [head, ...rest] = field ? field.split(".") : [];
  const f = head ? [FIELD[head] ?? head, ...rest].join(".") : "";
  return { path: f ? `rows.${row - 1}.${f}` : `rows.${row - 1}`, message: `Row ${row}${f ? ` (${f})` : ""}: ${message}` };
}

/** An AppError's problems as row `row`'s. */
function asRowProblems(row: number, e: unknown): ErrorDetail[] {
  if (!(e instanceof AppError) || e.code === "internal_error") throw e;
  if (e.details?.length) return e.details.map((d) => rowProblem(row, d.path === "(body)" ? "" : d.path, d.message));
  return [rowProblem(row, "", e.message)];
}

/** The refusal of an import: every bad row, in order, and nothing stored. */
export function refuseRows(problems: ErrorDetail[]): AppError {
  const rows = [...new Set(problems.map((p) => Number(p.path.split(".")[1]) + 1))].sort((a, b) => a - b);
  const sorted = [...problems].sort((a, b) => Number(a.path.split(".")[1]) - Number(b.path.split(".")[1]));
  const which = rows.length === 1 ? `Row ${rows[0]} has a problem` : `Rows ${rows.join(", ")} have problems`;
  return invalid(sorted, `${which}; nothing was imported.`);
}

type Resolved = { id: string | null; account: PublishingAccount | null } | { problem: string };

/**
 * The account a row goes to. A named one must be the caller's and of the row's network (else
 * the answer is that of a missing one); without one, the network's default, or for a microblog
 * network that is not the default's (Bluesky beside a default X), that network's first account.
 */
async function resolveAccount(ctx: Ctx, network: NetworkName, accountId: string | undefined): Promise<Resolved> {
  const net = networkNamed(network);
  const uid = ctx.caller.userId;
  const missing = { problem: `No ${net.name} account of yours has this id` };
  if (accountId) {
    const a = await accountFor(ctx.db, uid, net.platform, accountId).catch((e) => {
      if (e instanceof AppError && e.code === "action_failed") return null;
      throw e;
    });
    return a && networkFor(net.platform, a).id === network ? { id: a.id, account: a } : missing;
  }
  const def = await accountFor(ctx.db, uid, net.platform, null);
  if (def ? networkFor(net.platform, def).id === network : networkFor(net.platform).id === network) return { id: null, account: def };
  const other = (await listAccounts(ctx.db, uid)).find((a) => a.network === network);
  if (!other) return { problem: `No ${net.name} account is connected; connect one in Settings > Connections, or give this row another network` };
  return { id: other.account_id, account: await accountFor(ctx.db, uid, net.platform, other.account_id) };
}

/** What create_draft would refuse of this row, and a time it could not keep. */
async function rowProblems(ctx: Ctx, r: ImportRow, accountId: string | null): Promise<ErrorDetail[]> {
  const out: ErrorDetail[] = [];
  const d = r.draft;
  // Images elsewhere are fetched only once every row is otherwise fine (importDrafts).
  await checkMediaRefs(ctx, d.type, withoutOutside(ctx.ports.config().origin, d)).catch((e) => out.push(...asRowProblems(r.row, e)));
  await requireFits(ctx.db, ctx.caller.userId, d.type, accountId, d).catch((e) => out.push(...asRowProblems(r.row, e)));
  if (r.scheduledFor) {
    try {
      requireSchedulable(ctx, r.scheduledFor);
    } catch (e) {
      out.push(...asRowProblems(r.row, e));
    }
  }
  return out;
}

/**
 * Every row checked and planned: its account, and with `queue` (the owner's import) the time
 * each untimed row takes, the next free slots of its account's queue in row order (slots a
 * timed row of this import takes are not free). `problems` are those the schema already found.
 */
export async function planImport(ctx: Ctx, rows: ImportRow[], problems: ErrorDetail[], o: { queue: boolean }) {
  const out = [...problems];
  const planned: PlannedRow[] = [];
  const accounts = new Map<string, Promise<Resolved>>();
  const byAccount = new Map<string, { account: PublishingAccount | null; rows: PlannedRow[] }>();
  for (const r of rows) {
    const key = `${r.network} ${r.draft.account_id ?? ""}`;
    if (!accounts.has(key)) accounts.set(key, resolveAccount(ctx, r.network, r.draft.account_id));
    const acc = await accounts.get(key)!;
    if ("problem" in acc) {
      out.push(rowProblem(r.row, r.draft.account_id ? "account_id" : "network", acc.problem));
      continue;
    }
    const p = await rowProblems(ctx, r, acc.id);
    out.push(...p);
    const row: PlannedRow = { ...r, draft: { ...r.draft, ...(acc.id && { account_id: acc.id }) }, accountId: acc.id, at: r.scheduledFor };
    planned.push(row);
    const group = acc.account?.id ?? `none ${r.network}`;
    if (!byAccount.has(group)) byAccount.set(group, { account: acc.account, rows: [] });
    byAccount.get(group)!.rows.push(row);
  }
  out.push(...outsideUses(ctx.ports.config().origin, rows).over.map((u) => rowProblem(u.row, u.path, overCap)));
  if (o.queue) out.push(...(await fillSlots(ctx, [...byAccount.values()])));
  return { planned, problems: out };
}

/** The untimed rows of each account into its queue's next free slots, in row order; a problem for each row left without one. */
async function fillSlots(ctx: Ctx, groups: { account: PublishingAccount | null; rows: PlannedRow[] }[]): Promise<ErrorDetail[]> {
  const out: ErrorDetail[] = [];
  for (const { account, rows } of groups) {
    const untimed = rows.filter((r) => !r.at);
    if (!untimed.length) continue;
    const q = account ? await queueOf(ctx.db, account.id) : { slots: [], paused: false };
    const timed = new Set(rows.flatMap((r) => (r.at ? [r.at.getTime()] : [])));
    const free = account
      ? (
          await freeSlots(ctx.db, ctx.caller.userId, account, {
            slots: q.slots,
            tz: ctx.caller.timezone,
            after: leadFrom(ctx),
            count: untimed.length + timed.size,
          })
        ).filter((at) => !timed.has(at.getTime()))
      : [];
    const why = q.paused
      ? "its account's queue is paused"
      : q.slots.length
        ? "its account's queue has no free slot left within a year"
        : "its account's queue has no slots";
    untimed.forEach((r, i) => {
      if (free[i] && !q.paused) r.at = free[i];
      else out.push(rowProblem(r.row, "", `It has no date and time, and ${why}: give one, or set the queue's slots on the Queue page`));
    });
  }
  return out;
}

/** The hash of a plan as the owner's preview showed it: their confirmation holds for exactly these drafts at these times. */
export const planHash = (planned: PlannedRow[]) =>
  sha256(planned.map((r) => ({ row: r.row, draft: r.draft, account: r.accountId, at: r.at?.toISOString() ?? null })));

export type ImportOutcome = {
  import_id: string;
  drafts: { row: number; type: DraftType; id: string; linked_post_id: string | null; intended_for: string | null; scheduled_for: string | null }[];
  refused?: Refusal;
};

/**
 * import_drafts, and the owner's import with `queue`: checks every row, then creates all the
 * drafts and the import's record in one transaction (any failure stores nothing). An app's
 * import only creates drafts; the owner's, confirmed in person on what the preview showed
 * (ctx.shown is its planHash), schedules each at its planned time, as the composer does.
 */
export async function importDrafts(ctx: Ctx, rows: ImportRow[], problems: ErrorDetail[], o: { queue: boolean; alts?: Alt[] }): Promise<ImportOutcome> {
  const plan = await planImport(ctx, rows, problems, o);
  if (plan.problems.length) throw refuseRows(plan.problems);
  if (o.queue && ctx.shown !== planHash(plan.planned))
    throw new AppError(
      "action_failed",
      "The drafts or their slots changed since the preview (another draft may have taken a slot); nothing was imported.",
      "Check the file again and confirm what the new preview shows.",
    );
  const made = await withOutsideImages(ctx, plan.planned, async (here) => {
    // The descriptions the owner's file gave its images (the composer's way: describeAll).
    const described = await describeAll(
      ctx,
      (o.alts ?? []).map((a) => ({ url: here(a.url), alt: a.alt })),
    );
    return ctx.db.transaction(async (tx) => {
      const inTx = { ...ctx, db: tx };
      const drafts: ImportedDraft[] = [];
      for (const r of plan.planned) {
        const d = await createDraft(
          inTx,
          withImages(r.draft, (u) => described(here(u))),
        );
        drafts.push({ row: r.row, type: d.type, id: d.id, linked: d.linked_post_id, intended: r.at?.toISOString() ?? null });
      }
      const [rec] = await tx
        .insert(draftImports)
        .values({ userId: ctx.caller.userId, by: ctx.caller.inPerson ? null : ctx.caller.appName, drafts })
        .returning({ id: draftImports.id });
      return { id: rec.id, drafts };
    });
  });
  const outcome: ImportOutcome = {
    import_id: made.id,
    drafts: made.drafts.map((d) => ({ row: d.row, type: d.type, id: d.id, linked_post_id: d.linked, intended_for: d.intended, scheduled_for: null })),
  };
  if (!o.queue) return outcome;
  // The owner's confirmation covers scheduling each of these drafts at its time, each its own
  // action: one refused now (an account disconnected meanwhile, or without the permission to
  // post) stays a draft, and the others are still scheduled. The first refusal is the answer's.
  for (const [i, d] of made.drafts.entries()) {
    try {
      const shown = contentHashOf(await loadOwn(ctx.db, ctx, d.type, d.id));
      const s = await scheduleContent({ ...ctx, shown }, { type: d.type, id: d.id, scheduled_for: d.intended! });
      outcome.drafts[i].scheduled_for = s.scheduled_for;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      outcome.refused ??= refusalOf(e);
    }
  }
  return outcome;
}

/**
 * `store` given where each image elsewhere of the rows was stored as the caller's media
 * (fetchOutside), once every one was fetched and the rows that name them pass create_draft's
 * media checks with them (an animated GIF goes alone in a tweet). When any cannot be used, or
 * `store` fails, the images fetched are removed again: nothing else would (no draft names
 * them, and no sweep removes unused uploads), and the import stores nothing.
 */
async function withOutsideImages<T>(ctx: Ctx, rows: PlannedRow[], store: (here: (u: string) => string) => Promise<T>): Promise<T> {
  const origin = ctx.ports.config().origin;
  const { uses } = outsideUses(origin, rows);
  if (!uses.size) return store((u) => u);
  const fetched = await fetchOutside(ctx, uses, rowProblem);
  const here = (u: string) => fetched.at.get(u) ?? u;
  try {
    if (fetched.problems.length) throw refuseRows(fetched.problems);
    const late: ErrorDetail[] = [];
    for (const r of rows.filter((x) => imagesOf(x.draft).some((i) => isOutside(origin, i.url))))
      await checkMediaRefs(ctx, r.draft.type, withImages(r.draft, here)).catch((e) => late.push(...asRowProblems(r.row, e)));
    if (late.length) throw refuseRows(late);
    return await store(here);
  } catch (e) {
    await removeMedia(ctx.db, ctx.caller.userId, fetched.stored);
    throw e;
  }
}

/** Statuses an import's undo removes: nothing that went out, or may have, or is going out. */
const REMOVABLE = ["draft", "scheduled", "failed"];

export type ImportView = {
  id: string;
  by: string | null;
  created_at: string;
  drafts: { row: number; type: DraftType; id: string; title: string; status: string; scheduled_for: string | null; removable: boolean }[];
  /** What the undo acts on, as shown: every draft's content and state. */
  hash: string;
};

/** The owner's recent imports (newest first) with their drafts as they stand; drafts deleted since are left out. */
export async function recentImports(ctx: Ctx, limit = 5, id?: string): Promise<ImportView[]> {
  const uid = ctx.caller.userId;
  const recs = await ctx.db
    .select()
    .from(draftImports)
    .where(and(eq(draftImports.userId, uid), id ? eq(draftImports.id, id) : undefined))
    .orderBy(desc(draftImports.createdAt))
    .limit(limit);
  const out: ImportView[] = [];
  for (const rec of recs) {
    const rows = await Promise.all(
      (["post", "tweet"] as const).map(async (type) => {
        const t = draftTable(type);
        const ids = rec.drafts.filter((d) => d.type === type).map((d) => d.id);
        return ids.length
          ? (
              await ctx.db
                .select()
                .from(t)
                .where(and(eq(t.userId, uid), inArray(t.id, ids)))
            ).map((r) => ({ type, r }))
          : [];
      }),
    );
    const found = new Map(rows.flat().map((x) => [x.r.id, x]));
    const drafts = rec.drafts.flatMap((d) => {
      const f = found.get(d.id);
      if (!f) return [];
      const r = f.r;
      return [
        {
          row: d.row,
          type: d.type,
          id: d.id,
          title: r.title,
          status: r.status,
          scheduled_for: r.scheduledFor?.toISOString() ?? null,
          removable: REMOVABLE.includes(r.status),
        },
      ];
    });
    const hash = sha256(drafts.map((d) => ({ id: d.id, status: d.status, content: contentHashOf(found.get(d.id)!.r) })));
    out.push({ id: rec.id, by: rec.by, created_at: rec.createdAt.toISOString(), drafts, hash });
  }
  return out;
}

/**
 * The owner's undo of an import, as one action on what their page showed (ctx.shown is the
 * view's hash): every draft of it still unpublished is deleted (a tweet with the parent post
 * made for it); a draft that is out, going out or may be out is kept and named.
 */
export async function removeImport(ctx: Ctx, importId: string) {
  const [view] = await recentImports(ctx, 1, importId);
  if (!view) throw notFound("import");
  if (ctx.shown !== view.hash)
    throw new AppError(
      "action_failed",
      "The drafts of this import changed since the page showed them; nothing was removed.",
      "Look at them again, then remove.",
    );
  const uid = ctx.caller.userId;
  const [rec] = await ctx.db
    .select()
    .from(draftImports)
    .where(and(eq(draftImports.id, importId), eq(draftImports.userId, uid)));
  const cancelled: { type: DraftType; id: string }[] = [];
  const { gone, ...result } = await ctx.db.transaction(async (tx) => {
    const kept: { row: number; type: DraftType; id: string; status: string }[] = [];
    const gone: string[] = [];
    let removed = 0;
    for (const d of rec.drafts) {
      const t = draftTable(d.type);
      const [row] = await tx
        .select({ id: t.id, status: t.status, accountId: t.accountId })
        .from(t)
        .where(and(eq(t.id, d.id), eq(t.userId, uid)))
        .for("update");
      if (!row) continue;
      if (!REMOVABLE.includes(row.status)) {
        kept.push({ row: d.row, type: d.type, id: d.id, status: row.status });
        continue;
      }
      await tx.delete(t).where(eq(t.id, d.id));
      await draftDeleted(tx, ctx, d.type, d.id, row.status === "scheduled", row.accountId);
      if (row.status === "scheduled") cancelled.push({ type: d.type, id: d.id });
      removed++;
      gone.push(d.id);
      if (d.linked && (await removeParent(tx, ctx, d.linked))) gone.push(d.linked);
    }
    if (kept.length)
      await tx
        .update(draftImports)
        .set({ drafts: rec.drafts.filter((d) => kept.some((k) => k.id === d.id)) })
        .where(eq(draftImports.id, rec.id));
    else await tx.delete(draftImports).where(eq(draftImports.id, rec.id));
    return { import_id: rec.id, removed, kept, gone };
  });
  for (const c of cancelled) await ctx.ports.events.deleted({ ...c, userId: uid });
  // A deleted draft leaves no history (as delete_draft); what was kept keeps its own.
  for (const id of gone) await forget(ctx.db, uid, id);
  return result;
}

/** The parent post made for an imported tweet goes with it, unless it went its own way (published, scheduled) or has other tweets. */
async function removeParent(tx: Ctx["db"], ctx: Ctx, id: string): Promise<boolean> {
  const [p] = await tx
    .select({ id: postDrafts.id, status: postDrafts.status })
    .from(postDrafts)
    .where(and(eq(postDrafts.id, id), eq(postDrafts.userId, ctx.caller.userId)))
    .for("update");
  if (!p || p.status !== "draft") return false;
  const [other] = await tx.select({ id: tweetDrafts.id }).from(tweetDrafts).where(eq(tweetDrafts.postDraftId, id)).limit(1);
  if (other) return false;
  await tx.delete(postDrafts).where(eq(postDrafts.id, id));
  await draftDeleted(tx, ctx, "post", id, false, null);
  return true;
}
