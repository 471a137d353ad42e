"use client";
import { useActionState } from "react";
import { ActionForm } from "@/components/action-form";
import { confirmImport, previewFile } from "./actions";
import type { Preview } from "./types";

const cut = (s: string) => (s.length > 160 ? `${s.slice(0, 159)}…` : s);

/**
 * The Import page's file form and its preview: nothing is stored until the owner confirms a
 * preview without problems, and the confirm carries exactly the rows (and plan) it showed.
 */
export function ImportForm({ csrf }: { csrf: string }) {
  const [preview, check, pending] = useActionState(previewFile, null);
  const n = preview?.rows?.length ?? 0;
  return (
    <>
      <form action={check} className="card" aria-busy={pending}>
        <input type="hidden" name="csrf" value={csrf} />
        <label className="label" htmlFor="import-file">
          CSV file
        </label>
        <p className="help" id="import-file-help">
          One draft a row, under a header row. At most 200 rows and 512 KiB.
        </p>
        <input id="import-file" name="file" type="file" accept=".csv,text/csv" aria-describedby="import-file-help" required />
        <div className="actions">
          <button type="submit" className="btn" disabled={pending}>
            Check the file
          </button>
        </div>
      </form>
      {preview?.fileError ? (
        <p className="error-box" role="alert">
          {preview.fileError}
        </p>
      ) : null}
      {preview?.rows ? (
        <section className="card" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview</h2>
          {preview.bad ? (
            <p className="error-box" role="alert">
              {preview.bad} of {n} rows {preview.bad === 1 ? "has a problem" : "have problems"} (
              {preview.rows
                .filter((r) => r.problems.length)
                .map((r) => `row ${r.row}`)
                .join(", ")}
              ). Nothing is imported until {preview.bad === 1 ? "it is" : "they are"} fixed or removed from the file; then check it again.
            </p>
          ) : (
            <p className="ok-box" role="status">
              All {n} rows can be imported. Each is scheduled at the time shown: its own, or its account&apos;s next free queue slot.
            </p>
          )}
          <ol className="rows import-rows" aria-label="Rows of the file">
            {preview.rows.map((r) => (
              <li key={r.row} className={r.problems.length ? "has-problem" : undefined}>
                <div>
                  <strong>Row {r.row}</strong> · {r.where}
                  {r.parts > 1 ? ` · thread of ${r.parts}` : ""}
                  <p className="post-text">{cut(r.text)}</p>
                  <p className="meta">{r.when ? `${r.own ? "At" : "Next free slot:"} ${r.when}` : "No time yet"}</p>
                  {r.problems.length ? (
                    <ul className="field-error" aria-label={`Problems of row ${r.row}`}>
                      {r.problems.map((p) => (
                        <li key={p}>{p.replace(/^\(([^)]+)\): /, "$1: ").replace(/^: /, "")}</li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              </li>
            ))}
          </ol>
          {preview.confirm ? (
            <ActionForm action={confirmImport} label={`Import and schedule ${n} ${n === 1 ? "draft" : "drafts"}`}>
              <input type="hidden" name="csrf" value={csrf} />
              <input type="hidden" name="rows" value={preview.confirm.rows} />
              <input type="hidden" name="alts" value={preview.confirm.alts} />
              <input type="hidden" name="shown" value={preview.confirm.shown} />
              <input type="hidden" name="key" value={preview.confirm.key} />
            </ActionForm>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
