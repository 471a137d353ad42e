import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { hash } from "@node-rs/argon2";
import type { Db } from "@/lib/adapters/db";
import { users, type Plan } from "@/drizzle/schema";
import { issuePersonalToken } from "../apps/personal-tokens";

export const PLANS = ["none", "plus", "premium", "creator"] as const satisfies readonly Plan[];

export class AccountError extends Error {}

export async function createUser(
  db: Db,
  opts: { email: string; password: string; name?: string; plan?: Plan; complete?: boolean; onboarded?: boolean; publishingAllowed?: boolean },
) {
  const email = opts.email.trim().toLowerCase();
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing.length) throw new AccountError(`A user with e-mail ${email} already exists.`);
  const [user] = await db
    .insert(users)
    .values({
      email,
      name: opts.name ?? null,
      passwordHash: await hash(opts.password),
      plan: opts.plan ?? "none",
      accountCompletedAt: opts.complete === false ? null : new Date(),
      // A complete account counts as onboarded unless told otherwise (the first start's owner).
      onboardedAt: opts.complete === false || opts.onboarded === false ? null : new Date(),
      publishingAllowed: opts.publishingAllowed ?? false,
    })
    .returning({ id: users.id, email: users.email, plan: users.plan });
  return user;
}

async function updateByEmail(db: Db, email: string, values: Partial<typeof users.$inferInsert>) {
  const rows = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.email, email.trim().toLowerCase()))
    .returning({
      id: users.id,
      email: users.email,
      plan: users.plan,
      publishing_allowed: users.publishingAllowed,
      account_complete: sql<boolean>`${users.accountCompletedAt} is not null`,
    });
  if (!rows.length) throw new AccountError(`No user with e-mail ${email}.`);
  return rows[0];
}

export const setPlan = (db: Db, email: string, plan: Plan) => updateByEmail(db, email, { plan });
export const allowPublishing = (db: Db, email: string, allowed: boolean) => updateByEmail(db, email, { publishingAllowed: allowed });
export const completeAccount = (db: Db, email: string) => updateByEmail(db, email, { accountCompletedAt: new Date(), onboardedAt: new Date() });

export async function findUserByEmail(db: Db, email: string) {
  const [u] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return u;
}

/**
 * Connects an app for a user without the browser flow (the `issue-token` command): a
 * pre-registered client, a grant listed in Settings > Connections, and one access token.
 */
export async function issueCommandLineToken(db: Db, opts: { email: string; appName?: string; scopes?: string[]; expiresIn?: number; audience: string[] }) {
  const user = await findUserByEmail(db, opts.email);
  if (!user) throw new AccountError(`No user with e-mail ${opts.email}.`);
  const { access_token, token_type, expires_in, app_id } = await issuePersonalToken(db, user.id, opts);
  return { access_token, token_type, expires_in, app_id };
}

/**
 * On the first start against an empty database: one owner on the creator plan with a random
 * password, handed to `keep` before the account commits (a password that could not be kept
 * would lock the owner out, so then there is no account and the next start tries again).
 * Nothing else is seeded.
 */
/** An arbitrary key, fixed for this service, of the lock around creating the first owner. */
const OWNER_LOCK = "7251830418843029505";

export async function ensureOwner(db: Db, email: string, keep: (password: string) => Promise<void>): Promise<{ email: string } | null> {
  return db.transaction(async (tx) => {
    // Instances starting together on an empty database would each find no user: one creates
    // the owner, the others wait here and then find it.
    await tx.execute(sql`select pg_advisory_xact_lock(${OWNER_LOCK}::bigint)`);
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(users);
    if (count > 0) return null;
    const password = randomBytes(12).toString("base64url");
    // Complete, so the API works at once; not onboarded, so signing in asks for a profile first.
    const user = await createUser(tx, { email, password, name: "Owner", plan: "creator", complete: true, onboarded: false });
    await keep(password);
    return { email: user.email };
  });
}
