import type { Db } from "@/lib/adapters/db";
import { AppError, invalid, type ErrorDetail } from "@/lib/core/errors";
import { networkFor, NETWORKS, networkOfDraft, type DraftType, type NetworkSpec } from "@/lib/domain/networks";
import { accountFor } from "../accounts/accounts";
import type { DraftContent } from "./content-hash";

// A draft's text within its network's limits. A tweet goes to X or to Bluesky, whichever
// account it names (else the default microblog account), and each counts differently (X: 280
// weighted characters; Bluesky: 300 graphemes): the text is checked against the network of
// that account when the draft is written, and again when it is scheduled or published, since
// the default may have moved to another network meanwhile.

export type DraftTexts = { body?: string; thread?: (string | { text: string })[]; first_comment?: string | null };

/** What of these texts the network would refuse, one detail a field (the paths create_draft and update_draft take). */
export function textProblems(net: NetworkSpec, t: DraftTexts): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const body = t.body === undefined ? null : net.text.problem(t.body);
  if (body) out.push({ path: "body", message: body });
  t.thread?.forEach((part, i) => {
    const text = typeof part === "string" ? part : part.text;
    const problem = net.text.problem(text);
    // Named as thread[i] in the message too: part i + 2 of the thread, body being part 1.
    if (problem)
      out.push({ path: typeof part === "string" ? `thread.${i}` : `thread.${i}.text`, message: `thread[${i}] (part ${i + 2} of the thread): ${problem}` });
  });
  const comment = t.first_comment ? net.comment.problem(t.first_comment) : null;
  if (comment) out.push({ path: "first_comment", message: `first_comment: ${comment}` });
  return out;
}

/** The network a draft of `type` goes to: that of `accountId` (the caller's, else not found), else of the default account. */
export async function networkOfAccount(db: Db, userId: string, type: DraftType, accountId: string | null | undefined): Promise<NetworkSpec> {
  const { platform } = networkOfDraft(type);
  return networkFor(platform, await accountFor(db, userId, platform, accountId));
}

/**
 * create_draft and update_draft: texts the draft's network would refuse are invalid_request,
 * naming each field. Text that fits every network of its type needs no look-up of the account.
 */
export async function requireFits(db: Db, userId: string, type: DraftType, accountId: string | null | undefined, t: DraftTexts): Promise<void> {
  const nets = NETWORKS.filter((n) => n.draftType === type);
  const problems = nets.map((n) => textProblems(n, t));
  if (problems.every((p) => !p.length)) return;
  const mine = problems[nets.indexOf(await networkOfAccount(db, userId, type, accountId))];
  if (mine.length) throw invalid(mine);
}

/** schedule_content and publish_now: the draft as it stands, against the network of the account it goes to. */
export function requireFitsNetwork(net: NetworkSpec, d: DraftContent) {
  const problems = textProblems(net, { body: d.body, thread: d.thread, first_comment: d.firstComment });
  if (!problems.length) return;
  throw new AppError(
    "action_failed",
    `This draft does not fit ${net.name}: ${problems.map((p) => p.message).join("; ")}.`,
    `Shorten it with update_draft, or send it to an account on another network (account_id), then repeat the call.`,
  );
}
