import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { errorCode } from "@/lib/core/redact";
import { isUuid } from "@/lib/core/ids";
import { notFound } from "@/lib/core/errors";
import { authAccounts, postDrafts, publishingAccounts, tweetDrafts, type AccountKind } from "@/drizzle/schema";
import {
  connectionState,
  NETWORKS,
  networkFor,
  networkOfDraft,
  networkOfProvider,
  platformNames,
  PROVIDERS,
  type DraftType,
  type NetworkName,
  type PlatformName,
  type Provider,
} from "@/lib/domain/networks";
import { sha256 } from "../hash";

// Where an owner's drafts go: several accounts a network (people who signed in with it, and
// the LinkedIn pages they administer), one of them the default. Every query is scoped by the
// owner's id: another owner's account answers exactly like a missing one.

export type PublishingAccount = typeof publishingAccounts.$inferSelect;

/** The provider of the built-in sandbox's accounts (./sandbox.ts), which is no network's. */
export const SANDBOX_PROVIDER = "sandbox";

/** A stored connection to a network (its tokens), as a disconnect removes it. */
type Connection = typeof authAccounts.$inferSelect;

/** Whether an account or connection is the built-in sandbox. */
export const isSandboxAccount = (a: { provider: string } | null | undefined) => a?.provider === SANDBOX_PROVIDER;

/**
 * An account's id follows from whose it is and what it is on the network (a version 8 UUID of
 * their hash): written twice (a transaction that was rolled back and run again, two requests
 * at once) it is the same account, so an approval that named it still names it.
 */
export function accountIdOf(userId: string, platform: PlatformName, kind: AccountKind, externalId: string): string {
  const h = sha256({ userId, platform, kind, externalId });
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Every stored connection of the owner has its person account (the sign-in that made it
 * stored one; a connection stored otherwise, or whose account could not be written then, gets
 * it here), and each network with accounts has a default (the oldest, when none is set).
 */
export async function adoptConnections(db: Db, userId: string) {
  const stray = await db
    .select({ provider: authAccounts.provider, providerAccountId: authAccounts.providerAccountId, handle: authAccounts.handle })
    .from(authAccounts)
    .where(
      and(
        eq(authAccounts.userId, userId),
        inArray(authAccounts.provider, [...PROVIDERS]),
        sql`not exists (select 1 from ${publishingAccounts} p where p.provider = ${authAccounts.provider}
          and p.provider_account_id = ${authAccounts.providerAccountId} and p.kind = 'person')`,
      ),
    );
  for (const a of stray)
    await storePersonAccount(db, { userId, provider: a.provider as Provider, providerAccountId: a.providerAccountId, handle: a.handle, name: a.handle });
}

/**
 * A network with accounts and no default gets its oldest person (else page) as default (a
 * concurrent caller may win: fine). The built-in sandbox is the default only while it is alone:
 * a real account connected beside it takes its place.
 */
export async function ensureDefault(db: Db, userId: string, platform: PlatformName) {
  const mine = and(eq(publishingAccounts.userId, userId), eq(publishingAccounts.platform, platform));
  const oldest = db
    .select({ id: publishingAccounts.id })
    .from(publishingAccounts)
    .where(mine)
    .orderBy(
      sql`${publishingAccounts.provider} = ${SANDBOX_PROVIDER}`,
      sql`${publishingAccounts.kind} <> 'person'`,
      asc(publishingAccounts.createdAt),
      asc(publishingAccounts.id),
    )
    .limit(1);
  try {
    // In a savepoint of its own: inside a caller's transaction, a conflict must not end it.
    await db.transaction(async (sp) => {
      await sp
        .update(publishingAccounts)
        .set({ isDefault: false })
        .where(
          and(
            mine,
            eq(publishingAccounts.isDefault, true),
            eq(publishingAccounts.provider, SANDBOX_PROVIDER),
            sql`exists (select 1 from ${publishingAccounts} r where r.user_id = ${userId} and r.platform = ${platform} and r.provider <> ${SANDBOX_PROVIDER})`,
          ),
        );
      await sp
        .update(publishingAccounts)
        .set({ isDefault: true })
        .where(
          and(
            sql`${publishingAccounts.id} = (${oldest})`,
            sql`not exists (select 1 from ${publishingAccounts} d where d.user_id = ${userId} and d.platform = ${platform} and d.is_default)`,
          ),
        );
    });
  } catch (e) {
    if (errorCode(e) !== "23505") throw e; // another caller set one first
  }
}

/** After a sign-in with a network: the person's account, added beside the others (never replacing them). */
export async function storePersonAccount(
  db: Db,
  a: { userId: string; provider: Provider; providerAccountId: string; handle: string | null; name: string | null },
) {
  const platform = networkOfProvider(a.provider).platform;
  await storeAccount(db, { userId: a.userId, platform, kind: "person", externalId: a.providerAccountId, name: a.name, handle: a.handle }, a);
  await ensureDefault(db, a.userId, platform);
}

/**
 * Adds an account, or renames it (what the network said of it last; nothing it did not say is
 * wiped). Its id follows from what it is, so any conflict (two requests adopting the same
 * connection at once race on the id too) means it is there.
 */
export async function storeAccount(
  db: Db,
  a: { userId: string; platform: PlatformName; kind: AccountKind; externalId: string; name: string | null; handle: string | null },
  conn: { provider: string; providerAccountId: string },
) {
  const id = accountIdOf(a.userId, a.platform, a.kind, a.externalId);
  await db
    .insert(publishingAccounts)
    .values({ id, ...a, provider: conn.provider, providerAccountId: conn.providerAccountId })
    .onConflictDoNothing();
  if (a.name || a.handle)
    await db
      .update(publishingAccounts)
      .set({ name: a.name ?? sql`${publishingAccounts.name}`, handle: a.handle ?? sql`${publishingAccounts.handle}` })
      .where(eq(publishingAccounts.id, id));
}

/** How pages and forms name an account: a person by handle (else name), a page by name. */
export const accountLabel = (a: { name: string | null; handle: string | null; kind: AccountKind }) =>
  a.kind === "organization" ? `${a.name ?? a.handle ?? "a company page"} (company page)` : (a.handle ?? a.name);

/**
 * The company pages a LinkedIn connection's member administers, as accounts of the connection's
 * owner posting with its tokens (added or renamed; one no longer administered stays until the
 * owner disconnects it, and LinkedIn refuses its posts with its reason).
 */
export async function storeOrganizationAccounts(
  db: Db,
  conn: { userId: string; provider: string; providerAccountId: string },
  pages: { id: string; name: string | null; vanity: string | null }[],
) {
  for (const p of pages)
    await storeAccount(db, { userId: conn.userId, platform: "pronet", kind: "organization", externalId: p.id, name: p.name, handle: p.vanity }, conn);
}

/**
 * The drafts of `t` that go to `account`: its own, and for the network's default those with
 * none of their own (scheduled before accounts were chosen).
 */
export const goingTo = (t: typeof postDrafts | typeof tweetDrafts, account: { id: string; isDefault: boolean }) =>
  account.isDefault ? or(eq(t.accountId, account.id), isNull(t.accountId)) : eq(t.accountId, account.id);

export type AccountView = {
  account_id: string;
  platform: PlatformName;
  /** The network it is on: several share a platform (a microblog's drafts go to X or Bluesky). */
  network: NetworkName;
  kind: AccountKind;
  name: string | null;
  handle: string | null;
  default: boolean;
  state: "connected" | "needs_reconnect";
  /** The built-in sandbox standing in for the network (./sandbox.ts): the owner's pages say so. */
  sandbox: boolean;
};

/**
 * The account a draft goes to among the owner's `accounts` (listAccounts): its own, else its
 * platform's default; undefined when it has neither. Its `network` says whether a tweet goes
 * to X or to Bluesky.
 */
export const draftAccount = <A extends Pick<AccountView, "account_id" | "platform" | "default">>(
  accounts: readonly A[],
  type: DraftType,
  accountId?: string | null,
): A | undefined => {
  const { platform } = networkOfDraft(type);
  return (accountId ? accounts.find((a) => a.account_id === accountId) : undefined) ?? accounts.find((a) => a.platform === platform && a.default);
};

/** The owner's accounts, each network's default first, with the state of the connection each posts with. */
export async function listAccounts(db: Db, userId: string, now = new Date()): Promise<AccountView[]> {
  await adoptConnections(db, userId);
  const rows = await db
    .select({
      a: publishingAccounts,
      status: authAccounts.status,
      expires_at: authAccounts.expires_at,
      refresh_token: authAccounts.refresh_token,
    })
    .from(publishingAccounts)
    .innerJoin(
      authAccounts,
      and(eq(authAccounts.provider, publishingAccounts.provider), eq(authAccounts.providerAccountId, publishingAccounts.providerAccountId)),
    )
    .where(eq(publishingAccounts.userId, userId))
    .orderBy(sql`${publishingAccounts.isDefault} desc`, asc(publishingAccounts.createdAt), asc(publishingAccounts.id));
  const networkOf = (a: PublishingAccount) => networkFor(a.platform, a);
  const order = (a: PublishingAccount) => NETWORKS.indexOf(networkOf(a));
  rows.sort((x, y) => order(x.a) - order(y.a)); // stable: the default first, then the oldest
  return rows.map(({ a, ...c }) => ({
    account_id: a.id,
    platform: a.platform,
    network: networkOf(a).id,
    kind: a.kind,
    name: a.name,
    handle: a.handle,
    default: a.isDefault,
    state: connectionState(c, now).state === "connected" ? "connected" : "needs_reconnect",
    sandbox: isSandboxAccount(a),
  }));
}

/**
 * The account a draft of `platform` goes to: `accountId` (the owner's, of a network of that
 * platform, or not found as if missing), else the platform's default (one for LinkedIn, one
 * among the microblog accounts of X and Bluesky together); null when the owner has none.
 */
export async function accountFor(db: Db, userId: string, platform: PlatformName, accountId?: string | null): Promise<PublishingAccount | null> {
  if (accountId) {
    const [row] = await findOwn(db, userId, accountId, platform);
    if (!row) throw notFound(`${platformNames(platform)} account (account_id)`);
    return row;
  }
  // The default, else the account that is about to become it (ensureDefault's rule): another
  // process adopting the same connection may not have marked it yet.
  const find = async () =>
    (
      await db
        .select()
        .from(publishingAccounts)
        .where(and(eq(publishingAccounts.userId, userId), eq(publishingAccounts.platform, platform)))
        .orderBy(
          sql`${publishingAccounts.isDefault} desc`,
          sql`${publishingAccounts.kind} <> 'person'`,
          asc(publishingAccounts.createdAt),
          asc(publishingAccounts.id),
        )
        .limit(1)
    )[0];
  const found = await find();
  if (found) return found;
  await adoptConnections(db, userId);
  return (await find()) ?? null;
}

/** The owner's account `accountId` (of `platform`, when given) as a one-row list; empty when not theirs. */
async function findOwn(db: Db, userId: string, accountId: string, platform?: PlatformName, lock = false): Promise<PublishingAccount[]> {
  if (!isUuid(accountId)) return [];
  const q = db
    .select()
    .from(publishingAccounts)
    .where(and(eq(publishingAccounts.id, accountId), eq(publishingAccounts.userId, userId), platform ? eq(publishingAccounts.platform, platform) : undefined));
  return lock ? q.for("update") : q;
}

/** The owner's account, locked for the rest of the transaction; undefined when not theirs. */
const lockOwn = async (tx: Db, userId: string, accountId: string) => (await findOwn(tx, userId, accountId, undefined, true))[0];

/** One of the owner's accounts, of any network; not found (as if missing) when it is not theirs. */
export async function ownAccount(db: Db, userId: string, accountId: string): Promise<PublishingAccount> {
  const [row] = await findOwn(db, userId, accountId);
  if (!row) throw notFound("account (account_id)");
  return row;
}

/** The owner makes an account their network's default; false when it is not theirs. */
export async function setDefaultAccount(db: Db, userId: string, accountId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const a = await lockOwn(tx, userId, accountId);
    if (!a) return false;
    await tx
      .update(publishingAccounts)
      .set({ isDefault: false })
      .where(and(eq(publishingAccounts.userId, userId), eq(publishingAccounts.platform, a.platform), eq(publishingAccounts.isDefault, true)));
    await tx.update(publishingAccounts).set({ isDefault: true }).where(eq(publishingAccounts.id, a.id));
    return true;
  });
}

/**
 * The owner disconnects one account: a person's takes its connection (its tokens, and the
 * pages it posted to) with it; a page goes alone. Drafts scheduled to what is removed go back
 * to drafts (nothing is posted to an account the owner removed, nor to another one they did
 * not approve). Returns the connection removed with it (a person's), or false when the account
 * is not theirs.
 */
export async function disconnectAccount(db: Db, userId: string, accountId: string): Promise<{ removed: Connection | null } | false> {
  return db.transaction(async (tx) => {
    const a = await lockOwn(tx, userId, accountId);
    if (!a) return false;
    const gone =
      a.kind === "person"
        ? (
            await tx
              .select({ id: publishingAccounts.id })
              .from(publishingAccounts)
              .where(and(eq(publishingAccounts.provider, a.provider), eq(publishingAccounts.providerAccountId, a.providerAccountId)))
          ).map((r) => r.id)
        : [a.id];
    for (const t of [postDrafts, tweetDrafts]) {
      await tx
        .update(t)
        .set({
          status: "draft",
          scheduledFor: null,
          approvedContentHash: null,
          failureReason: "Its account was disconnected before it went out, so it was unscheduled. Choose an account and schedule it again.",
        })
        .where(and(eq(t.userId, userId), inArray(t.accountId, gone), eq(t.status, "scheduled")));
    }
    let removed: Connection | null = null;
    if (a.kind === "person")
      [removed = null] = await tx
        .delete(authAccounts)
        .where(and(eq(authAccounts.provider, a.provider), eq(authAccounts.providerAccountId, a.providerAccountId)))
        .returning();
    else await tx.delete(publishingAccounts).where(eq(publishingAccounts.id, a.id));
    await ensureDefault(tx, userId, a.platform);
    return { removed };
  });
}
