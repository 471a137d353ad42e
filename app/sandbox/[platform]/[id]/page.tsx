import { notFound } from "next/navigation";
import { signedInUserId } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { findSandboxPost } from "@/lib/platforms/sandbox";

export const dynamic = "force-dynamic";

// A sandbox post is "public" like a real one: whoever has its link (a random UUID) sees it.
// There is no listing, so nobody can browse other people's posts.
export default async function SandboxPost({ params }: { params: Promise<{ platform: string; id: string }> }) {
  const { platform, id } = await params;
  const post = await findSandboxPost(await db(), platform, id);
  if (!post) notFound();
  // Its owner, signed in, gets a way back to the draft's page; everyone else sees the post only.
  const mine = (await signedInUserId()) === post.userId;
  return (
    <main>
      <p>
        Sandbox {post.platform === "pronet" ? "professional network (LinkedIn stand-in)" : "microblog (X stand-in)"} · published {post.createdAt.toISOString()}
      </p>
      <article style={{ whiteSpace: "pre-wrap", border: "1px solid #ccc", padding: "1rem", maxWidth: "40rem" }}>{post.text}</article>
      <p>This post was published to the service&apos;s built-in sandbox, not to a real network.</p>
      {mine ? (
        <p>
          <a href={`/content/${post.draftType}/${post.draftId}`}>Open its page in your content</a>
        </p>
      ) : null}
    </main>
  );
}
