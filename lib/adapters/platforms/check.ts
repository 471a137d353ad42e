import type { Db } from "@/lib/adapters/db";
import { NETWORKS, networkNamed, type PlatformName } from "@/lib/domain/networks";
import { listAccounts } from "@/lib/domain/accounts/accounts";
import { adapterFor, connectedAccount, realConfigured } from "./index";
import { linkedInVersionInUse } from "./linkedin-version";
import { grantedScopes, missingScopes, scopesFor } from "@/lib/domain/networks/scopes";

// "Check connection" (Settings > Connections, `npm run admin -- check-connections`): one
// harmless read on each connected network, and what the connection can do, so a self-hoster
// learns that the app credentials work before the first scheduled post.

export type ConnectionCheck = {
  platform: PlatformName;
  /** The network's name people read: LinkedIn, X, Bluesky. */
  network: string;
  handle: string | null;
  reachable: boolean;
  /** What the network answered (or why it could not be asked). */
  detail: string;
  /** As the network granted them; null when it did not say. */
  granted: string[] | null;
  needed: string[];
  missing: string[];
  expiresAt: string | null;
  canRenew: boolean;
  /** LinkedIn: the LinkedIn-Version its requests carry (LinkedIn retires each after a year); null elsewhere. */
  apiVersion: string | null;
};

/** One check per account (each posts with its connection's tokens), on each configured network. */
export async function checkConnections(db: Db, userId: string): Promise<ConnectionCheck[]> {
  const out: ConnectionCheck[] = [];
  for (const account of await listAccounts(db, userId)) {
    const { id, platform, name } = networkNamed(account.network);
    // A company page posts with its member's connection, which that member's own check reads.
    if (!realConfigured(id) || account.kind === "organization") continue;
    const acc = await connectedAccount(db, userId, platform, account.account_id);
    if (!acc) continue;
    const { reachable, detail } = await adapterFor(id, acc, db).probe();
    const granted = grantedScopes(acc.scope);
    out.push({
      platform,
      network: name,
      handle: account.handle ?? account.name,
      reachable,
      detail,
      granted: granted && [...granted],
      needed: scopesFor(id, ["text", "media", "check"]),
      missing: missingScopes(id, acc.scope, ["text", "media", "check"]),
      expiresAt: acc.expires_at === null ? null : new Date(acc.expires_at * 1000).toISOString(),
      canRenew: !!acc.refresh_token,
      apiVersion: id === "linkedin" ? linkedInVersionInUse(new Date()) : null,
    });
  }
  return out;
}

/**
 * The networks the built-in sandbox stands in for (no app credentials), each with what sets it
 * up: a check that found nothing to call says why instead of answering with an empty list.
 */
export function sandboxInUse(): { network: string; detail: string }[] {
  return NETWORKS.flatMap((n) =>
    n.signIn.kind === "oauth" && !realConfigured(n.id)
      ? [
          {
            network: n.name,
            detail:
              `${n.name} is not set up: its drafts go to the built-in sandbox and stay in this service. ` +
              `Set ${n.signIn.vars.join(" and ")}, restart, then connect an account in Settings > Connections.`,
          },
        ]
      : [],
  );
}
