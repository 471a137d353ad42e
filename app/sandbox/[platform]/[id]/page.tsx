import { notFound } from "next/navigation";
import { signedInUserId } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { formatInZone } from "@/components/format";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { COMMENT, findSandboxPost, sandboxThread } from "@/lib/adapters/platforms/sandbox";

export const dynamic = "force-dynamic";

type Part = Awaited<ReturnType<typeof sandboxThread>>[number];

/** One part: its text, its images (served by /media/{id}), or its document with its page count. */
function PartView({ part, current, total }: { part: Part; current: boolean; total: number }) {
  const images = part.documentTitle ? [] : part.media;
  const doc = part.documentTitle ? part.media[0] : undefined;
  return (
    <article
      id={part.id}
      data-part={part.part}
      aria-current={current ? "true" : undefined}
      style={{ border: current ? "2px solid #333" : "1px solid #ccc", padding: "1rem", maxWidth: "40rem", marginBottom: "0.75rem" }}
    >
      {part.part === COMMENT ? (
        <p className="meta">
          <a href={`./${part.id}`}>First comment</a>
        </p>
      ) : total > 1 ? (
        <p className="meta">
          <a href={`./${part.id}`}>
            Part {part.part + 1} of {total}
          </a>
        </p>
      ) : null}
      <div style={{ whiteSpace: "pre-wrap" }}>{part.text}</div>
      {images.length ? (
        <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem", marginTop: "0.75rem" }}>
          {images.map((m) => (
            // Served by this service's /media route; plain <img>: no optimiser for stored media.
            // eslint-disable-next-line @next/next/no-img-element
            <img key={m.id} src={`/media/${m.id}`} alt={m.altText ?? ""} style={{ maxWidth: images.length > 1 ? "48%" : "100%", height: "auto" }} />
          ))}
        </div>
      ) : null}
      {doc ? (
        <p style={{ marginTop: "0.75rem" }}>
          Document: <a href={`/media/${doc.id}`}>{part.documentTitle}</a>
          {doc.pages ? ` (${doc.pages} ${doc.pages === 1 ? "page" : "pages"})` : null}
        </p>
      ) : null}
    </article>
  );
}

// A sandbox post is "public" like a real one: whoever has its link (a random UUID) sees it.
// There is no listing, so nobody can browse other people's posts. A thread shows all its
// parts in order, the linked one marked.
export default async function SandboxPost({ params }: { params: Promise<{ platform: string; id: string }> }) {
  const { platform, id } = await params;
  const d = await db();
  const post = await findSandboxPost(d, platform, id);
  if (!post) notFound();
  const thread = await sandboxThread(d, post);
  const parts = thread.filter((p) => p.part !== COMMENT).length;
  // Its owner, signed in, gets a way back to the draft's page; everyone else sees the post only.
  const mine = (await signedInUserId()) === post.userId;
  return (
    <main>
      <p>
        Sandbox {post.platform === "pronet" ? "professional network (LinkedIn stand-in)" : "microblog (X stand-in)"} · published{" "}
        {formatInZone(post.createdAt, (await getProfile(d, post.userId))?.timezone ?? "UTC")}
        {parts > 1 ? ` · a thread of ${parts} parts` : null}
      </p>
      {thread.map((p) => (
        <PartView key={p.id} part={p} current={p.id === post.id} total={parts} />
      ))}
      <p>This post was published to the service&apos;s built-in sandbox, not to a real network.</p>
      {mine ? (
        <p>
          <a href={`/content/${post.draftType}/${post.draftId}`}>Open its page in your content</a>
        </p>
      ) : null}
    </main>
  );
}
