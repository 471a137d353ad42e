import { networkOfDraft, type DraftType } from "@/lib/networks";
import { realConfigured } from "./index";
import { sandboxUrl } from "./sandbox";

/** Where a draft goes when published, in the words people read. */
export type Destination = {
  /** The built-in sandbox stands in for the network (no app credentials for it). */
  sandbox: boolean;
  /** The network it is written for: LinkedIn, X. */
  network: string;
  /** After "to": LinkedIn, or the sandbox. */
  name: string;
  /** A place in a sentence: "on LinkedIn", "in the sandbox". */
  where: string;
  /** The account, or what the sandbox is: "LinkedIn (@you)", "the sandbox (LinkedIn is not set up: posts stay in this service)". */
  account: string;
  /** A badge: LinkedIn, or Sandbox post. */
  badge: string;
  /** For the sandbox: the variables that set the real network up. */
  setupVars: readonly string[] | null;
};

const VARS = { pronet: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"], micro: ["X_CLIENT_ID", "X_CLIENT_SECRET"] } as const;

/**
 * The one answer to where a draft of this type goes, for every text that names it: the real
 * network when this deployment has its app credentials, else the built-in sandbox, which is
 * never called LinkedIn or X. `handle`: the connected account, shown for the real network only.
 */
export function destination(type: DraftType, handle?: string | null): Destination {
  return described(type, !realConfigured(networkOfDraft(type).platform), handle);
}

/** Each draft type's badge, for lists of drafts of both types. */
export const destinationBadges = (): Record<string, string> => ({ post: destination("post").badge, tweet: destination("tweet").badge });

/** Where a published draft went, from its link: the set-up may have changed since. */
export function publishedTo(type: DraftType, url: string): Destination {
  return described(type, url.startsWith(sandboxUrl(networkOfDraft(type).platform, "")));
}

function described(type: DraftType, sandbox: boolean, handle?: string | null): Destination {
  const n = networkOfDraft(type);
  if (!sandbox) {
    return {
      sandbox,
      network: n.name,
      name: n.name,
      where: `on ${n.name}`,
      account: handle ? `${n.name} (${handle})` : n.name,
      badge: n.name,
      setupVars: null,
    };
  }
  return {
    sandbox,
    network: n.name,
    name: "the sandbox",
    where: "in the sandbox",
    account: `the sandbox (${n.name} is not set up: ${type}s stay in this service)`,
    badge: `Sandbox ${type}`,
    setupVars: VARS[n.platform],
  };
}
