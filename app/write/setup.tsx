import { csrfToken, type requireOwner } from "@/lib/transports/auth/session";
import { formKey } from "@/lib/transports/owner/door";
import { db } from "@/lib/adapters/db";
import { destination, sandboxNetworks } from "@/lib/adapters/platforms/destination";
import { accountLabel, listAccounts } from "@/lib/domain/accounts/accounts";
import { SandboxNote } from "@/components/sandbox-note";
import { networkOfDraft } from "@/lib/domain/networks";
import { formatInZone, pickerStart, zonedParts } from "@/components/format";
import { ports } from "@/lib/adapters/ports";
import { ownerContext } from "@/lib/domain/owner/owner";
import { manageQueue } from "@/lib/domain/queue/queue";
import { MAX_POST_IMAGES, MAX_TWEET_IMAGES } from "@/lib/domain/media/draft-media";
import { MAX_IMAGE_BYTES, MAX_PDF_BYTES, MEDIA_TYPES } from "@/lib/domain/media/files";
import { remaining } from "@/lib/domain/owner/allowances";
import type { ComposerProps, Target } from "./composer";

// What the composer needs to know, for a new draft (page.tsx) and for an edit of one
// ([type]/[id]/page.tsx): where the owner can post, each account's next queue slot, the
// limits of files, the AI in use and the allowances left.

const MEDIA = { imageBytes: MAX_IMAGE_BYTES, pdfBytes: MAX_PDF_BYTES, types: MEDIA_TYPES };
const LIMITS = { post: { ...MEDIA, images: MAX_POST_IMAGES, pdf: true }, tweet: { ...MEDIA, images: MAX_TWEET_IMAGES, pdf: false } };

type Owner = Awaited<ReturnType<typeof requireOwner>>;

export async function composerSetup(me: Owner, o: { day?: string; at?: Date | null } = {}): Promise<ComposerProps> {
  const ctx = ownerContext(await db(), me, ports());
  const accounts = (await listAccounts(ctx.db, me.id)).filter((a) => a.state === "connected");
  // The slot "Add to queue" takes for each account (none: a paused or empty queue).
  const nextSlot = new Map(
    await Promise.all(accounts.map(async (a) => [a.account_id, (await manageQueue(ctx, { account_id: a.account_id })).next_slots[0] ?? null] as const)),
  );
  const targets: Target[] = (["post", "tweet"] as const).map((type) => {
    const platform = type === "post" ? "pronet" : "micro";
    const mine = accounts.filter((a) => a.platform === platform);
    const dest = destination(type);
    return {
      type,
      network: dest.network,
      networkId: networkOfDraft(type).id,
      sandbox: dest.sandbox,
      badge: dest.badge,
      accounts: mine.map((a) => {
        // Its own network's words and limits: a tweet's account is on X or on Bluesky.
        const to = destination(type, accountLabel(a), a.network);
        const label = accountLabel(a) ?? to.network;
        const slot = nextSlot.get(a.account_id);
        return {
          id: a.account_id,
          label,
          default: a.default,
          destination: to.account,
          nextSlot: slot ? formatInZone(new Date(slot), me.timezone) : null,
          network: to.network,
          networkId: a.network,
          sandbox: to.sandbox,
        };
      }),
      // Without a connected account only the sandbox takes it (no account: no queue either).
      fallback: dest.sandbox ? dest.account : null,
    };
  });
  const left = await remaining(ctx.db, me.id, me.plan, new Date());
  const config = ctx.ports.config();
  const start = pickerStart(o.at ?? null, me.timezone);
  return {
    userId: me.id,
    name: me.name ?? me.email,
    csrf: csrfToken(me.id, "write"),
    formKey: formKey(),
    targets,
    when: { date: o.day ?? start.date, time: start.time, today: zonedParts(new Date(), me.timezone).date, timeZone: me.timezone },
    limits: LIMITS,
    model: config.OPENAI_API_KEY ? config.AI_MODEL : null,
    allowance: { posts: left.posts_remaining, aiActions: left.ai_actions_remaining },
    x: { prices: config.xPrices, replies: config.X_REPLIES },
  };
}

/** Where each kind of draft goes when that is the sandbox, said above the composer. */
export const SandboxNotes = ({ types }: { types: ("post" | "tweet")[] }) => <SandboxNote networks={sandboxNetworks(types)} />;
