"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { formatInZone } from "@/lib/core/time";
import { listAccounts, accountLabel } from "@/lib/domain/accounts/accounts";
import { planHash, planImport } from "@/lib/domain/drafts/import";
import { NETWORK_NAMES } from "@/lib/domain/networks";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerContext } from "@/lib/domain/owner/owner";
import { importToQueueOp, removeImportOp } from "@/lib/operations/in-person/import-to-queue";
import { parseRows } from "@/lib/operations/drafts/import-drafts";
import { expired } from "@/lib/transports/auth/form-errors";
import { formKey } from "@/lib/transports/owner/door";
import { ownerAction, ownerStep } from "@/lib/transports/owner/form";
import { MAX_CSV_BYTES, rowsOfCsv } from "@/lib/transports/owner/import-csv";
import { partlyScheduled } from "@/lib/transports/owner/import-outcome";
import type { ActionState } from "@/components/action-form";
import type { Preview } from "./types";

// The Import page's three actions: the preview of a file (reads only: every row checked as
// import_drafts checks it, the untimed ones given their slots), the confirm of exactly that
// preview, and the undo of an import; the last two through the one door, the owner in person.

const PAGE = "/import";

export async function previewFile(_prev: Preview | null, form: FormData): Promise<Preview> {
  return ownerAction<Preview>(form, { page: PAGE, purpose: "import", expired: () => ({ fileError: expired().error }) }, async (userId) => {
    const file = form.get("file");
    if (!(file instanceof File) || !file.size) return { fileError: "Choose a CSV file first." };
    if (file.size > MAX_CSV_BYTES) return { fileError: `The file is larger than ${MAX_CSV_BYTES / 1024} KiB; split it in two.` };
    const d = await db();
    const profile = (await getProfile(d, userId))!;
    const accounts = await listAccounts(d, userId);
    const csv = rowsOfCsv(await file.text(), accounts, profile.timezone);
    if ("error" in csv) return { fileError: csv.error };
    const parsed = parseRows(csv.rows);
    const ctx = ownerContext(d, { id: userId, ...profile }, ports());
    const plan = await planImport(ctx, parsed.rows, [...csv.problems, ...parsed.problems], { queue: true });
    const label = (id: string | null, network: string) => {
      const a = id ? accounts.find((x) => x.account_id === id) : accounts.find((x) => x.network === network && x.default);
      // A row's network may be none (a typo in the file): it is shown as written, with its problem.
      return `${NETWORK_NAMES[network] ?? (network || "No network")}${a ? `: ${a.sandbox ? "sandbox" : (accountLabel(a) ?? "account")}` : ""}`;
    };
    const planned = new Map(plan.planned.map((r) => [r.row, r]));
    const rows = csv.rows.map((raw, i) => {
      const p = planned.get(i + 1);
      const problems = plan.problems.filter((x) => x.path === `rows.${i}` || x.path.startsWith(`rows.${i}.`)).map((x) => x.message.replace(/^Row \d+ ?/, ""));
      return {
        row: i + 1,
        where: label(p?.accountId ?? null, String(raw.network)),
        text: String(raw.text ?? ""),
        parts: Array.isArray(raw.thread) ? raw.thread.length + 1 : 1,
        when: p?.at ? formatInZone(p.at, profile.timezone) : null,
        own: !!p?.scheduledFor,
        problems,
      };
    });
    const bad = rows.filter((r) => r.problems.length).length;
    if (bad) return { rows, bad };
    return { rows, bad, confirm: { rows: JSON.stringify(csv.rows), alts: JSON.stringify(csv.alts), shown: planHash(plan.planned), key: formKey() } };
  });
}

export async function confirmImport(_prev: ActionState, form: FormData): Promise<ActionState> {
  let partly: string | null = null;
  const to = await ownerStep(form, { page: PAGE, purpose: "import", expired }, async (door) => {
    const out = await door.run(importToQueueOp, { rows: JSON.parse(String(form.get("rows") ?? "[]")), alts: JSON.parse(String(form.get("alts") ?? "[]")) });
    partly = partlyScheduled(out);
    return `${PAGE}?done=imported&import=${out.import_id}`;
  });
  if (typeof to !== "string") return to;
  revalidatePath(PAGE);
  // Saved, but not all scheduled: which rows stay drafts and why, beside the form (as the
  // composer says it), with the import listed below.
  if (partly) return { error: partly };
  redirect(to);
}

export async function removeImport(_prev: ActionState, form: FormData): Promise<ActionState> {
  const to = await ownerStep(form, { page: PAGE, purpose: "import", expired }, async (door) => {
    const out = await door.run(removeImportOp, { import_id: String(form.get("import") ?? "") });
    return `${PAGE}?done=removed&n=${out.removed}&kept=${out.kept.length}`;
  });
  if (typeof to !== "string") return to;
  revalidatePath(PAGE);
  redirect(to);
}
