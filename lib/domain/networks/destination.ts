import { NETWORKS, networkOfDraft, type DraftType } from "@/lib/domain/networks";

/** The network `network` names (a stored approval's, say) when it takes drafts of this type, else the type's first. */
export const networkOf = (type: DraftType, network?: string | null) => NETWORKS.find((n) => n.id === network && n.draftType === type) ?? networkOfDraft(type);

/** Where a draft goes when published, in the words people read. */
export type Destination = {
  /** The built-in sandbox stands in for the network (no app credentials for it). */
  sandbox: boolean;
  /** The network it is written for: LinkedIn, X, Bluesky. */
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

/**
 * The words for a draft of this type going to the real network, or to the built-in sandbox,
 * which is never called LinkedIn or X. Pure: whether the sandbox stands in is the caller's
 * fact (lib/adapters/platforms/destination.ts asks the configuration; the domain, its platforms port).
 * `handle`: the connected account, shown for the real network only; `network`: the account's
 * network, when it is known (else the first of the draft's type: X for a tweet).
 */
export function describeDestination(type: DraftType, sandbox: boolean, handle?: string | null, network?: string): Destination {
  const n = networkOf(type, network);
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
    setupVars: n.signIn.kind === "oauth" ? n.signIn.vars : [],
  };
}
