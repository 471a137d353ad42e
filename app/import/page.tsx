import { requireOwner, csrfToken } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { recentImports } from "@/lib/domain/drafts/import";
import { ownerContext } from "@/lib/domain/owner/owner";
import { ActionForm } from "@/components/action-form";
import { FormOutcome } from "@/components/form-outcome";
import { OwnerShell } from "@/components/owner-shell";
import { formatInZone } from "@/components/format";
import { removeImport } from "./actions";
import { ImportForm } from "./preview";

export const dynamic = "force-dynamic";
export const metadata = { title: "Import · Contentio" };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** Where an import's drafts stand, as counts: "2 scheduled · 1 draft (row 2)". Drafts name their rows (those the owner still has to schedule). */
function stateOf(drafts: { row: number; status: string }[]): string {
  const by = new Map<string, number[]>();
  for (const d of drafts) by.set(d.status, [...(by.get(d.status) ?? []), d.row]);
  return [...by]
    .map(([status, rows]) =>
      status === "draft" ? `${plural(rows.length, "draft")} (${rows.length === 1 ? "row" : "rows"} ${rows.join(", ")})` : `${rows.length} ${status}`,
    )
    .join(" · ");
}

function done(sp: Record<string, string | undefined>): string | undefined {
  if (sp.done === "imported") return "Imported and scheduled. The drafts are in your queue and calendar; remove them below if that was a mistake.";
  if (sp.done === "removed") {
    const kept = Number(sp.kept ?? 0);
    return `Removed ${plural(Number(sp.n ?? 0), "draft")}.${kept ? ` Kept ${plural(kept, "draft")} that went out, or may have: see below.` : ""}`;
  }
  return undefined;
}

/**
 * The owner's Import page: a spreadsheet of drafts, previewed row by row with each row's
 * problems and the slot it would take, imported and scheduled only when the owner confirms
 * that preview; and the recent imports, each removable as one.
 */
export default async function ImportPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const me = await requireOwner("/import", { complete: true });
  const csrf = csrfToken(me.id, "import");
  const imports = await recentImports(ownerContext(await db(), me, ports()));
  return (
    <OwnerShell email={me.email} userId={me.id} current="/queue">
      <h1>Import</h1>
      <FormOutcome done={done(sp)} />
      <p className="meta">
        Many drafts from a spreadsheet saved as CSV, one draft a row under a header row. Rows without a date and time take their account&apos;s next free{" "}
        <a href="/queue">queue</a> slots in order; rows with one are scheduled then. You see every row and its problems before anything is stored.
      </p>
      <details className="card">
        <summary>The columns</summary>
        <dl className="facts">
          <dt>
            <code>network</code>
          </dt>
          <dd>linkedin, x or bluesky</dd>
          <dt>
            <code>text</code>
          </dt>
          <dd>The post, or a thread&apos;s first part, within its network&apos;s limit</dd>
          <dt>
            <code>account</code> (optional)
          </dt>
          <dd>The account&apos;s handle or name as Connections shows it; empty: the network&apos;s default</dd>
          <dt>
            <code>date</code>, <code>time</code> (optional)
          </dt>
          <dd>YYYY-MM-DD and HH:MM (24-hour) in your time zone, {me.timezone}; empty: the next free slot</dd>
          <dt>
            <code>image_url</code>, <code>alt</code> (optional)
          </dt>
          <dd>
            An image: the address of one in your media, or an https address elsewhere, fetched and added to your media when you import (PNG, JPEG, GIF or WebP,
            up to 5 MB); and what it shows
          </dd>
          <dt>
            <code>first_comment</code> (optional)
          </dt>
          <dd>Posted right after the post</dd>
          <dt>
            <code>thread_2</code>, <code>thread_3</code>… (optional)
          </dt>
          <dd>X and Bluesky: the thread&apos;s further parts, in order</dd>
        </dl>
      </details>
      <ImportForm csrf={csrf} />
      {imports.length ? (
        <section className="card" aria-labelledby="imports-title">
          <h2 id="imports-title">Recent imports</h2>
          <ul className="rows">
            {imports.map((i) => {
              const removable = i.drafts.filter((d) => d.removable).length;
              const kept = i.drafts.length - removable;
              return (
                <li key={i.id}>
                  <div>
                    <strong>{formatInZone(new Date(i.created_at), me.timezone)}</strong> · {i.by ? `by ${i.by}` : "by you"} · {plural(i.drafts.length, "draft")}
                    <p className="meta">
                      {i.drafts
                        .slice(0, 3)
                        .map((d) => d.title)
                        .join(" · ")}
                      {i.drafts.length > 3 ? " …" : ""}
                    </p>
                    <p className="meta">{stateOf(i.drafts)}</p>
                    {kept ? <p className="meta">{plural(kept, "draft")} went out (or may have) and stay.</p> : null}
                  </div>
                  {removable ? (
                    <ActionForm
                      action={removeImport}
                      label={`Remove these ${plural(removable, "draft")}`}
                      labelClass="btn danger"
                      confirm={{
                        question: `Delete the ${plural(removable, "draft")} of this import that are not published? Their schedules are cancelled.`,
                        label: "Remove",
                        danger: true,
                      }}
                    >
                      <input type="hidden" name="csrf" value={csrf} />
                      <input type="hidden" name="import" value={i.id} />
                      <input type="hidden" name="shown" value={i.hash} />
                    </ActionForm>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </OwnerShell>
  );
}
