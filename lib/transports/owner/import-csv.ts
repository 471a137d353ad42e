import { parse } from "csv-parse/sync";
import type { ErrorDetail } from "@/lib/core/errors";
import { zonedToUtc } from "@/lib/core/time";
import type { AccountView } from "@/lib/domain/accounts/accounts";
import { MAX_IMPORT_ROWS, rowProblem } from "@/lib/domain/drafts/import";
import { networkNamed, NETWORKS } from "@/lib/domain/networks";

// The owner's spreadsheet as import_drafts' rows (docs/owner-pages.md, Import): one row a
// draft under a header row naming the columns; a date and time on the owner's wall clock. What
// only the file can get wrong (an unknown column, a date that is no date, an account by a name
// they do not have) is a problem of its row, shown with the rows' own problems.

/** The largest file read: 200 long posts fit, and the confirm's copy of the rows stays under the pages' 1 MiB form cap. */
export const MAX_CSV_BYTES = 512 * 1024;

const COLUMNS = ["network", "account", "text", "date", "time", "image_url", "alt", "first_comment"];
const THREAD = /^thread_(\d+)$/;
/** What a spreadsheet may call a network, beside its own name. */
const ALIASES: Record<string, string> = { twitter: "x" };

/** A calendar date as written (2030-02-30 is none, though Date would roll it over). */
const realDate = (d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d) && new Date(`${d}T12:00:00Z`).toISOString().slice(0, 10) === d;

export type CsvRows = { rows: Record<string, unknown>[]; alts: { url: string; alt: string }[]; problems: ErrorDetail[] } | { error: string };

/** The file's rows as import rows, with the file's own problems; or why the file as a whole cannot be read. */
export function rowsOfCsv(text: string, accounts: AccountView[], timezone: string): CsvRows {
  let records: Record<string, string>[];
  try {
    records = parse(text, {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      relax_column_count: true,
      // One row past the cap says "too many" without reading a huge file's rest.
      to_line: MAX_IMPORT_ROWS + 2,
    });
  } catch (e) {
    return { error: `The file is not CSV that can be read: ${e instanceof Error ? e.message.split("\n")[0] : "unknown problem"}` };
  }
  if (records.length > MAX_IMPORT_ROWS) return { error: `A file may have at most ${MAX_IMPORT_ROWS} rows under its header; split it in two.` };
  if (!records.length) return { error: "The file has no rows under its header." };
  const header = Object.keys(records[0]);
  const unknown = header.filter((h) => h && !COLUMNS.includes(h) && !THREAD.test(h));
  if (unknown.length)
    return {
      error:
        `Unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `"${u}"`).join(", ")}: ` +
        `the columns are ${COLUMNS.join(", ")} and thread_2, thread_3 and so on.`,
    };
  for (const must of ["network", "text"]) if (!header.includes(must)) return { error: `The file has no "${must}" column.` };
  const threadColumns = header.filter((h) => THREAD.test(h)).sort((a, b) => Number(THREAD.exec(a)![1]) - Number(THREAD.exec(b)![1]));
  const problems: ErrorDetail[] = [];
  const alts: { url: string; alt: string }[] = [];
  const rows = records.map((r, i) => {
    const row = i + 1;
    const cell = (k: string) => (r[k] ?? "").trim();
    const named = cell("network").toLowerCase();
    const network = ALIASES[named] ?? named;
    const out: Record<string, unknown> = { network, text: r.text ?? "" };
    const known = NETWORKS.some((n) => n.id === network);
    if (cell("account") && known) {
      const want = cell("account").replace(/^@/, "").toLowerCase();
      const a = accounts.find(
        (x) => x.network === network && (x.account_id === cell("account") || x.handle?.toLowerCase() === want || x.name?.toLowerCase() === want),
      );
      if (a) out.account_id = a.account_id;
      else problems.push(rowProblem(row, "account", `No ${networkNamed(network as "x").name} account of yours is called "${cell("account")}"`));
    }
    if (cell("date") || cell("time")) {
      const at = realDate(cell("date")) && /^([01]\d|2[0-3]):[0-5]\d$/.test(cell("time")) ? zonedToUtc(cell("date"), cell("time"), timezone) : null;
      if (at) out.scheduled_for = at.toISOString();
      else problems.push(rowProblem(row, realDate(cell("date")) ? "time" : "date", "Give both a date (YYYY-MM-DD) and a time (HH:MM, 24-hour), or neither"));
    }
    if (cell("image_url")) {
      out.image_urls = [cell("image_url")];
      if (cell("alt")) alts.push({ url: cell("image_url"), alt: cell("alt") });
    }
    if (cell("first_comment")) out.first_comment = cell("first_comment");
    const parts = threadColumns.map((c) => r[c] ?? "").filter((p) => p.trim());
    if (parts.length) out.thread = parts;
    return out;
  });
  return { rows, alts, problems };
}
