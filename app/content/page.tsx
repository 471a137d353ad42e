import Link from "next/link";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { lastChangedBy } from "@/lib/domain/drafts/history";
import { draftsAwaitingApproval, ownerContext } from "@/lib/domain/owner/owner";
import { searchContent } from "@/lib/domain/drafts/search";
import { AppError } from "@/lib/core/errors";
import { STATUS_TONE, STATUS_WORDS, actorName, formatInZone, relative } from "@/components/format";
import { OwnerShell } from "@/components/owner-shell";
import { destination } from "@/lib/adapters/platforms/destination";
import { draftAccount, listAccounts } from "@/lib/domain/accounts/accounts";
import { platformNames, type DraftType } from "@/lib/domain/networks";
import { listDetails, tabCounts } from "@/lib/domain/owner/content-list";
import { servedAt } from "@/lib/core/media-url";
import { ApplyFilters } from "@/components/apply-filters";
import { GettingStarted } from "@/components/getting-started";
import { gettingStarted } from "@/lib/domain/owner/getting-started";

export const dynamic = "force-dynamic";
export const metadata = { title: "Content · Contentio" };

const PAGE_SIZE = 20;

// The tabs map onto draft statuses; "Needs attention" adds drafts an app waits on approval for.
const TABS = [
  ["all", "All", null],
  ["draft", "Drafts", ["draft"]],
  ["scheduled", "Scheduled", ["scheduled", "publishing"]],
  ["published", "Published", ["published"]],
  ["attention", "Needs attention", ["failed", "unknown"]],
] as const;

type SP = Record<string, string | undefined>;

export default async function ContentPage({ searchParams }: { searchParams: Promise<SP> }) {
  const sp = await searchParams;
  const me = await requireOwner("/content", { complete: true });
  const d = await db();
  const ctx = ownerContext(d, me, ports());
  const tab = TABS.find((t) => t[0] === sp.status) ?? TABS[0];
  const network: "post" | "tweet" | "" = sp.network === "post" || sp.network === "tweet" ? sp.network : "";
  const q = (sp.q ?? "").slice(0, 200);
  const waiting = await draftsAwaitingApproval(d, me.id);
  const types = network ? [network] : (["post", "tweet"] as const).slice();
  const input = {
    query: q || undefined,
    types,
    limit: PAGE_SIZE,
    keepLines: true,
    ...(tab[2] && { statuses: [...tab[2]], ...(tab[0] === "attention" && { orIds: waiting }) }),
  };
  let page;
  try {
    page = await searchContent(ctx, { ...input, cursor: sp.cursor });
  } catch (e) {
    // A cursor from another search (or a stale one) starts again at the first page.
    if (!(e instanceof AppError)) throw e;
    page = await searchContent(ctx, input);
  }
  // Counted with the network and search the list has, so each tab's number is what it lists.
  const [by, counts, details] = await Promise.all([
    lastChangedBy(
      d,
      me.id,
      page.results.map((r) => r.id),
    ),
    tabCounts(ctx, {
      types,
      query: q || undefined,
      tabs: TABS.map(([key, , statuses]) => ({ key, statuses, ...(key === "attention" && { orIds: waiting }) })),
    }),
    listDetails(ctx, page.results),
  ]);
  const link = (over: SP) => {
    const p = new URLSearchParams();
    const v = { status: tab[0] === "all" ? undefined : tab[0], network: network || undefined, q: q || undefined, ...over };
    for (const [k, val] of Object.entries(v)) if (val) p.set(k, val);
    const s = p.toString();
    return `/content${s ? `?${s}` : ""}`;
  };
  const now = new Date();
  // Each row's network by its account: a tweet goes to X or to Bluesky.
  const accounts = await listAccounts(d, me.id);
  const badgeOf = (r: { type: string; account_id?: string | null }) => {
    const type = r.type as DraftType; // the list searches posts and tweets only
    return destination(type, null, draftAccount(accounts, type, r.account_id)?.network).badge;
  };
  const start = await gettingStarted(d, me.id);

  return (
    <OwnerShell email={me.email} userId={me.id} current="/content">
      <h1>Content</h1>
      {start.hidden ? null : <GettingStarted steps={start.steps} csrf={csrfToken(me.id, "getting-started")} page="/content" hidden={false} />}
      {sp.done === "deleted" ? (
        <p className="ok-box" role="status">
          Deleted.
        </p>
      ) : null}
      <nav aria-label="Filter by status">
        <ul className="tabs">
          {TABS.map(([key, text]) => (
            <li key={key}>
              <a href={link({ status: key === "all" ? undefined : key, cursor: undefined })} aria-current={tab[0] === key ? "page" : undefined}>
                {text}{" "}
                <span className="count">
                  {counts[key].n}
                  {counts[key].more ? "+" : ""}
                </span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form className="filters" role="search" action="/content">
        {tab[0] !== "all" ? <input type="hidden" name="status" value={tab[0]} /> : null}
        <div>
          <label htmlFor="q">Search</label>
          <input id="q" type="search" name="q" defaultValue={q} placeholder="Words in the title or text" />
        </div>
        <div>
          <label htmlFor="network">Network</label>
          <select id="network" name="network" defaultValue={network}>
            <option value="">All networks</option>
            <option value="post">{platformNames("pronet")}</option>
            <option value="tweet">{platformNames("micro")}</option>
          </select>
        </div>
        <ApplyFilters />
        {q ? (
          <a className="clear" href={link({ q: undefined, cursor: undefined })}>
            Clear search
          </a>
        ) : null}
      </form>

      {page.results.length === 0 ? (
        <p className="card">
          {q ? (
            `Nothing matches “${q}”.`
          ) : tab[0] === "attention" ? (
            "Nothing needs your attention."
          ) : tab[0] === "scheduled" ? (
            <>
              Nothing is scheduled. Schedule a draft from its page, or add it to the <Link href="/queue">queue</Link>.
            </>
          ) : tab[0] === "published" ? (
            "Nothing published yet: what goes out appears here, with its link."
          ) : (
            <>
              No drafts here yet. <Link href="/write">Write one</Link>, or connect an AI app: what it drafts appears here too.
            </>
          )}
        </p>
      ) : (
        <ul className="rows items" aria-label="Drafts">
          {page.results.map((r) => {
            const who = by.get(r.id);
            const more = details.get(r.id);
            const time =
              r.scheduled_for && (r.status === "scheduled" || r.status === "publishing")
                ? `Scheduled for ${formatInZone(new Date(r.scheduled_for), me.timezone)}`
                : `Updated ${relative(new Date(r.updated_at), now)}`;
            return (
              <li key={r.id} className={more?.image ? "with-thumb" : undefined}>
                {more?.image ? (
                  // A plain img: the draft's own address, as the item page shows it; the title beside it names the row.
                  // eslint-disable-next-line @next/next/no-img-element
                  <img className="thumb" src={servedAt(more.image)} alt="" loading="lazy" />
                ) : null}
                {/* The network before the title: a post and a tweet written together share their first words. */}
                <h2>
                  <span className="badge net">{badgeOf(r)}</span> <a href={`/content/${r.type}/${r.id}`}>{r.title}</a>
                </h2>
                <p className="meta">
                  <span className={`badge ${STATUS_TONE[r.status] ?? "net"}`}>{STATUS_WORDS[r.status] ?? r.status}</span>{" "}
                  {more && more.parts > 1 ? (
                    <>
                      <span className="badge thread">Thread · {more.parts} parts</span>{" "}
                    </>
                  ) : null}
                  {more?.image ? (
                    <>
                      <span className="badge">Image</span>{" "}
                    </>
                  ) : null}
                  {more?.document ? (
                    <>
                      <span className="badge">PDF</span>{" "}
                    </>
                  ) : null}
                  {waiting.includes(r.id) ? (
                    <>
                      <span className="badge">Waiting for your approval</span>{" "}
                    </>
                  ) : null}
                  {time}
                  {who ? (
                    <>
                      {" "}
                      · {who.kind === "created" ? "Created" : "Last changed"} by {actorName(who)}
                    </>
                  ) : null}
                </p>
                {r.snippet !== r.title ? <p className="snippet">{r.snippet}</p> : null}
              </li>
            );
          })}
        </ul>
      )}
      <nav className="pager" aria-label="Pages">
        {sp.cursor ? <a href={link({})}>First page</a> : <span />}
        {page.next_cursor ? <a href={link({ cursor: page.next_cursor })}>Next page</a> : null}
      </nav>
    </OwnerShell>
  );
}
