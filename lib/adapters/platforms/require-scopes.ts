import { needsOf, scopeProblem } from "@/lib/domain/networks/scopes";
import { PublishError, type PlatformName, type PublishRequest } from "@/lib/domain/networks/platform";

// The scope table and its arithmetic are neutral (lib/domain/networks/scopes.ts: the domain reads
// them too); the adapters' own check is here.

/** Publishing's own check, before anything is sent: content the connection cannot post fails at once. */
export function requireScopes(p: PlatformName, acc: { scope: string | null }, req: PublishRequest) {
  const problem = scopeProblem(p, acc.scope, needsOf(req.parts.some((part) => part.media.length > 0) || !!req.document));
  if (problem) throw new PublishError("failed", problem);
}
