import { networkOfDraft, type DraftType } from "@/lib/domain/networks";
import { describeDestination, networkOf, type Destination } from "@/lib/domain/networks/destination";
import { realConfigured } from "./index";
import { sandboxUrl } from "./sandbox";

export type { Destination };

/**
 * The one answer to where a draft of this type goes, for every text that names it: the real
 * network when this deployment has its app credentials, else the built-in sandbox, which is
 * never called LinkedIn or X. `handle`: the connected account, shown for the real network only;
 * `network`: the account's, when known (else the draft type's first: X for a tweet).
 */
export function destination(type: DraftType, handle?: string | null, network?: string): Destination {
  const n = networkOf(type, network);
  return describeDestination(type, !realConfigured(n.id), handle, n.id);
}

/** Each draft type's badge, for lists of drafts of both types. */
export const destinationBadges = (): Record<string, string> => ({ post: destination("post").badge, tweet: destination("tweet").badge });

/** Where a published draft went, from its link: the set-up may have changed since. */
export function publishedTo(type: DraftType, url: string): Destination {
  return describeDestination(type, url.startsWith(sandboxUrl(networkOfDraft(type).platform, "")));
}

/** The sandbox notice's networks: of these draft types, those the sandbox stands in for, with what sets each up. */
export const sandboxNetworks = (types: DraftType[]) =>
  types.flatMap((type) => {
    const d = destination(type);
    return d.sandbox && d.setupVars?.length ? [{ name: d.network, type, vars: d.setupVars }] : [];
  });
