import { needsOf, scopeProblem } from "@/lib/networks/scopes";
import { PublishError, type PlatformName, type PublishRequest } from "./types";

// The scope table and its arithmetic are neutral (lib/networks/scopes.ts: the domain reads them
// too); the adapters' own check is here.
export * from "@/lib/networks/scopes";

/** Publishing's own check, before anything is sent: content the connection cannot post fails at once. */
export function requireScopes(p: PlatformName, acc: { scope: string | null }, req: PublishRequest) {
  const problem = scopeProblem(p, acc.scope, needsOf(req.parts.some((part) => part.media.length > 0) || !!req.document));
  if (problem) throw new PublishError("failed", problem);
}
