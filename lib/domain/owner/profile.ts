import { eq } from "drizzle-orm";
import { notFound } from "@/lib/core/errors";
import type { PlatformName } from "@/lib/domain/networks";
import { users } from "@/drizzle/schema";
import type { Ctx } from "../context";
import { publishingProblem } from "../accounts/health";
import { listAccounts } from "../accounts/accounts";
import { remaining } from "./allowances";

const PLATFORMS: PlatformName[] = ["pronet", "micro"];

/**
 * The user's voice, niche, connections and allowance (docs/interface.md, Profile). Name and picture
 * are personal data beyond the default `email` scope: only with the `profile` scope.
 * connected_accounts always lists both networks (their default accounts); ready_to_publish
 * says whether a publish would go through now (always true with the built-in sandbox).
 * accounts lists every account a draft can go to.
 */
export async function getProfileContext(ctx: Ctx) {
  const uid = ctx.caller.userId;
  const [u] = await ctx.db.select().from(users).where(eq(users.id, uid));
  if (!u) throw notFound("account");
  const withProfile = ctx.caller.scopes.includes("profile");
  // First: it adopts any stray connection once, so the per-network reads below only read.
  const accounts = await listAccounts(ctx.db, uid, ctx.now());
  const connected_accounts = await Promise.all(
    PLATFORMS.map(async (platform) => {
      const acc = await ctx.ports.platforms.connection(ctx.db, uid, platform);
      return {
        platform,
        handle: acc?.handle ?? null,
        connected: !!acc && acc.status === "connected",
        ready_to_publish: (await publishingProblem(ctx, platform, acc)) === null,
      };
    }),
  );
  return {
    user: { id: u.id, email: u.email, name: withProfile ? u.name : null, image_url: withProfile ? u.image : null },
    plan: u.plan,
    timezone: u.timezone,
    voice: { summary: u.voiceSummary, tone: u.tone, sample_posts: u.samplePosts.slice(0, 5) },
    niche: u.niche,
    traits: u.traits,
    pillars: u.pillars.map((p) => ({ name: p.name, description: p.description ?? null })),
    connected_accounts,
    // The sandbox flag is the owner's pages' (its account is named "Sandbox" for apps).
    accounts: accounts.map(({ sandbox: _, ...a }) => a),
    publishing_allowed: u.publishingAllowed,
    allowance: await remaining(ctx.db, uid, u.plan, ctx.now()),
  };
}
