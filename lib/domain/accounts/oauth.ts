import type { Db } from "@/lib/adapters/db";
import { invalid } from "@/lib/core/errors";
import { networkNamed, type NetworkName } from "@/lib/domain/networks";
import type { Platforms } from "../ports";
import type { AccountView } from "./accounts";
import { keepSession } from "./sessions";

// Connecting a network through its own OAuth (Bluesky: atproto OAuth), as the owner does in
// Settings > Connections: the handle names the account, whose server's sign-in page the owner
// goes to; back from it, the session is kept as any connection's. Only the owner who started a
// sign-in can finish it, once (the network adapter keeps it bound to them).

/** The address of the sign-in page for the owner's `handle`. */
export async function startOAuthConnect(
  db: Db,
  userId: string,
  platforms: Pick<Platforms, "authorize">,
  network: NetworkName,
  handle: string,
): Promise<string> {
  if (!handle.trim()) throw invalid([{ path: "handle", message: `Give the ${networkNamed(network).name} handle, e.g. alice.bsky.social` }]);
  return platforms.authorize(db, network, handle, userId);
}

/** The owner back from the sign-in page with `params`: the account connected (or renewed). */
export async function finishOAuthConnect(
  db: Db,
  userId: string,
  platforms: Pick<Platforms, "finishAuthorize">,
  network: NetworkName,
  params: URLSearchParams,
): Promise<AccountView> {
  return platforms.finishAuthorize(db, network, params, userId, (s) => keepSession(db, userId, network, s, "oauth"));
}
