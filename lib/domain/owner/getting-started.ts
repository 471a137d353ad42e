import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { connectedApps, draftEvents, postDrafts, publishingAccounts, sandboxPosts, tweetDrafts, users } from "@/drizzle/schema";
import { SANDBOX_PROVIDER } from "../accounts/accounts";

// The first-run "Getting started" list: each step ticks itself from what the owner has done
// (nothing is stored per step, so it cannot drift from the data), and the list can be put away
// (users.getting_started_hidden_at) and found again under Profile.

export type Step = { key: string; label: string; done: boolean; href: string; help: string };

const exists = async (db: Db, q: Promise<unknown[]>) => (await q).length > 0;

export async function gettingStarted(db: Db, userId: string): Promise<{ hidden: boolean; steps: Step[] }> {
  const [[u], wrote, queued, published, assistant, real] = await Promise.all([
    db.select({ hidden: users.gettingStartedHiddenAt }).from(users).where(eq(users.id, userId)),
    Promise.all([postDrafts, tweetDrafts].map((t) => exists(db, db.select({ id: t.id }).from(t).where(eq(t.userId, userId)).limit(1)))),
    exists(
      db,
      db
        .select({ id: draftEvents.id })
        .from(draftEvents)
        .where(and(eq(draftEvents.userId, userId), eq(draftEvents.kind, "scheduled")))
        .limit(1),
    ),
    exists(db, db.select({ id: sandboxPosts.id }).from(sandboxPosts).where(eq(sandboxPosts.userId, userId)).limit(1)),
    exists(db, db.select({ id: connectedApps.id }).from(connectedApps).where(eq(connectedApps.userId, userId)).limit(1)),
    exists(
      db,
      db
        .select({ id: publishingAccounts.id })
        .from(publishingAccounts)
        .where(and(eq(publishingAccounts.userId, userId), ne(publishingAccounts.provider, SANDBOX_PROVIDER)))
        .limit(1),
    ),
  ]);
  return {
    hidden: !!u?.hidden,
    steps: [
      { key: "write", label: "Write a post", done: wrote.some(Boolean), href: "/write", help: "The composer shows how it looks on each network as you type." },
      {
        key: "queue",
        label: "Add it to the queue",
        done: queued,
        href: "/queue",
        help: "“Add to queue” puts it in the next free slot; the Queue page sets the slots.",
      },
      {
        key: "sandbox",
        label: "Publish one to the sandbox",
        done: published,
        href: "/write",
        help: "“Publish now” sends it to the built-in sandbox while no network is set up: nobody else sees it.",
      },
      {
        key: "assistant",
        label: "Connect an assistant",
        done: assistant,
        href: "/settings/connections#assistant",
        help: "Claude, ChatGPT or your own program, over MCP or the API.",
      },
      {
        key: "network",
        label: "Connect LinkedIn or X for real",
        done: real,
        href: "/settings/connections#accounts",
        help: "Set up the network's app credentials, then connect your account.",
      },
    ],
  };
}

/** The owner puts the list away, or brings it back to Content. */
export async function setGettingStartedHidden(db: Db, userId: string, hidden: boolean) {
  await db
    .update(users)
    .set({ gettingStartedHiddenAt: hidden ? sql`now()` : null })
    .where(eq(users.id, userId));
}
