import { needsOf, scopeProblem } from "@/lib/domain/networks/scopes";
import { PublishError, type PublishRequest } from "@/lib/domain/networks/platform";
import type { NetworkName } from "@/lib/domain/networks";

/** Whether a request needs media scopes: a first comment (`null`) is text only. */
const hasMedia = (req: PublishRequest | null) => !!req && (req.parts.some((part) => part.media.length > 0) || !!req.document);

// The scope table and its arithmetic are neutral (lib/domain/networks/scopes.ts: the domain reads
// them too); the adapters' own check is here.

/** Publishing's own check, before anything is sent: content the connection cannot post fails at once. */
export function requireScopes(p: NetworkName, acc: { scope: string | null; target?: { kind: string } }, req: PublishRequest | null) {
  // A company page posts with its administering member's token, which must hold the pages' scopes.
  const needs = acc.target?.kind === "organization" ? ["pages" as const] : needsOf(hasMedia(req));
  const problem = scopeProblem(p, acc.scope, needs);
  if (problem) throw new PublishError("failed", problem);
}
