import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { authAccounts, postingQueues, publishingAccounts, type QueueSlot } from "@/drizzle/schema";
import type { PlatformName } from "@/lib/domain/networks";
import { disconnectAccount, ensureDefault, SANDBOX_PROVIDER, storeAccount } from "./accounts";

// The built-in sandbox as an account: while a platform's first network (LinkedIn; X for a
// microblog) has no app credentials, the owner has one sandbox account on it, connected, with
// a posting queue of weekday slots, so the queue, "Add to queue" and the calendar's open slots
// work on the first run. It is stored as a connection of its own provider, which is no
// network's: networkFor() then names the platform's first network, and the platforms port
// sends its drafts to the sandbox. Once the network is configured it is removed (drafts
// scheduled to it go back to drafts): it never stands for the real network.

/** The slots a sandbox queue starts with: weekdays at 09:00 and 17:00 on the owner's wall clock. */
export const DEFAULT_SLOTS: QueueSlot[] = (["mon", "tue", "wed", "thu", "fri"] as const).flatMap((weekday) => [
  { weekday, time: "09:00" },
  { weekday, time: "17:00" },
]);

const PLATFORMS: PlatformName[] = ["pronet", "micro"];

/**
 * Gives the owner a sandbox account on each platform `sandboxed` says has no real network set
 * up (with the default slots, once: slots the owner changed stay changed), and removes those of
 * the platforms that have one now.
 */
export async function syncSandboxAccounts(db: Db, userId: string, sandboxed: (platform: PlatformName) => boolean) {
  for (const platform of PLATFORMS) {
    const providerAccountId = `${platform}:${userId}`;
    if (!sandboxed(platform)) {
      const stale = await db
        .select({ id: publishingAccounts.id })
        .from(publishingAccounts)
        .where(and(eq(publishingAccounts.userId, userId), eq(publishingAccounts.provider, SANDBOX_PROVIDER), eq(publishingAccounts.platform, platform)));
      for (const a of stale) await disconnectAccount(db, userId, a.id);
      continue;
    }
    const made = await db
      .insert(authAccounts)
      .values({ userId, type: SANDBOX_PROVIDER, provider: SANDBOX_PROVIDER, providerAccountId, status: "connected" })
      .onConflictDoNothing()
      .returning({ id: authAccounts.providerAccountId });
    if (!made.length) continue;
    const conn = { provider: SANDBOX_PROVIDER, providerAccountId };
    await storeAccount(db, { userId, platform, kind: "person", externalId: SANDBOX_PROVIDER, name: "Sandbox", handle: null }, conn);
    await ensureDefault(db, userId, platform);
    const [account] = await db
      .select({ id: publishingAccounts.id })
      .from(publishingAccounts)
      .where(and(eq(publishingAccounts.provider, SANDBOX_PROVIDER), eq(publishingAccounts.providerAccountId, providerAccountId)));
    await db.insert(postingQueues).values({ accountId: account.id, userId, slots: DEFAULT_SLOTS, paused: false }).onConflictDoNothing();
  }
}
