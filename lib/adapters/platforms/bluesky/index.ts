import type { Db } from "@/lib/adapters/db";
import { PublishError, type Platform, type Probe } from "@/lib/domain/networks/platform";
import { authorized, type Account } from "../tokens";
import { errorText } from "../http";
import { refresher } from "./session";
import { NET, staleToken, xrpc } from "./xrpc";

// Bluesky (the AT Protocol) as the account's own PDS serves it, with the session an app
// password made (session.ts): docs/platforms.md, "Bluesky".

/** The account's PDS with a usable session, renewed once when the PDS refuses it as expired (one renewal at a time per account: tokens.ts). */
export function session(acc: Account, db: Db) {
  const pds = acc.serviceUrl;
  if (!pds) throw new PublishError("failed", `The ${NET} connection names no server; the owner must connect ${NET} again in Settings > Connections.`);
  return { pds, auth: authorized(db, acc, () => refresher(pds), NET, staleToken) };
}

export function bluesky(acc: Account, db: Db): Platform {
  const refuse = async (): Promise<never> => {
    throw new PublishError("failed", "Publishing to Bluesky is not available yet.");
  };
  return {
    name: "micro",
    kind: "bluesky",
    publish: refuse,
    comment: refuse,
    async probe(): Promise<Probe> {
      const what = "GET com.atproto.server.getSession";
      try {
        const { pds, auth } = session(acc, db);
        const res = await auth((token) => xrpc(pds, "com.atproto.server.getSession", { token, guarded: true }));
        if (!res.ok) return { reachable: false, detail: `${what} was refused (${res.status}: ${await errorText(res)})` };
        const who = ((await res.json().catch(() => null)) as { handle?: unknown } | null)?.handle;
        return { reachable: true, detail: `${what} answered${typeof who === "string" ? ` as @${who}` : ""}` };
      } catch (e) {
        return { reachable: false, detail: e instanceof PublishError ? e.message : `${what} failed` };
      }
    },
    // Engagement is read from the AppView (BLUESKY_APPVIEW_URL): not yet.
    metrics: async (req) => new Map(req.posts.map((p) => [p.postId, { note: "Engagement on Bluesky is not read yet." }])),
  };
}
