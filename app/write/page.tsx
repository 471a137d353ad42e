import { requireOwner } from "@/lib/transports/auth/session";
import { OwnerShell } from "@/components/owner-shell";
import { Composer } from "./composer";
import { composerSetup, SandboxNotes } from "./setup";

export const dynamic = "force-dynamic";
export const metadata = { title: "Write · Contentio" };

// The owner's composer: a LinkedIn post, an X tweet or thread, or both, written with live
// previews and saved, queued, scheduled or published through the same domain functions as the
// API, the owner in person (their own page is the confirmation).

export default async function WritePage({ searchParams }: { searchParams: Promise<{ d?: string }> }) {
  const me = await requireOwner("/write", { complete: true });
  const { d } = await searchParams;
  const setup = await composerSetup(me, { day: d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined });
  return (
    <OwnerShell email={me.email} userId={me.id} current="/write" wide>
      <h1>Write</h1>
      <p className="meta">
        Many at once? <a href="/import">Import them from a spreadsheet</a>.
      </p>
      <SandboxNotes types={["post", "tweet"]} />
      <Composer {...setup} />
    </OwnerShell>
  );
}
