import type { Db } from "@/lib/adapters/db";
import { invalid, type ErrorDetail } from "@/lib/core/errors";
import { networkNamed, type NetworkName } from "@/lib/domain/networks";
import type { Platforms } from "../ports";
import type { AccountView } from "./accounts";
import { keepSession } from "./sessions";

// Connecting a network that takes the owner's handle and an app password (Bluesky), as the
// owner does in Settings > Connections or on the command line: never an app. The network's
// sign-in gives a session, kept as any connection's (sessions.ts). The password is passed on
// once and kept nowhere: not stored, not logged, not in an error.

const MAX_PASSWORD = 200;

/**
 * The owner connects (or renews) an account of `network` with its handle and an app
 * password. Returns the account, as get_profile_context lists it.
 */
export async function connectWithPassword(
  db: Db,
  userId: string,
  platforms: Pick<Platforms, "signIn">,
  input: { network: NetworkName; handle: string; password: string },
): Promise<AccountView> {
  const net = networkNamed(input.network);
  const problems: ErrorDetail[] = [];
  if (!input.handle.trim()) problems.push({ path: "handle", message: `Give the ${net.name} handle, e.g. alice.bsky.social` });
  if (!input.password) problems.push({ path: "password", message: `Give an app password made in ${net.name}'s settings` });
  else if (input.password.length > MAX_PASSWORD) problems.push({ path: "password", message: `An app password has at most ${MAX_PASSWORD} characters` });
  if (problems.length) throw invalid(problems);
  const s = await platforms.signIn(input.network, input.handle, input.password, userId);
  return keepSession(db, userId, input.network, s, "app_password");
}
