import { refusal } from "@/lib/transports/auth/form-errors";

// What the Import page tells the owner when their confirmed import was saved but not all of
// it could be scheduled: which rows stay drafts, and why (the API's words, as the composer
// says why a saved draft was not scheduled).

type Outcome = {
  drafts: { row: number; scheduled_for: string | null }[];
  refused?: { message: string; hint?: string; details?: { path: string; message: string }[] };
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The sentence for an import some of whose drafts were not scheduled (null when all were). */
export function partlyScheduled(out: Outcome): string | null {
  const left = out.drafts.filter((d) => !d.scheduled_for).map((d) => d.row);
  if (!out.refused || !left.length) return null;
  const which =
    left.length === 1 ? `row ${left[0]} could not be scheduled and stays a draft` : `rows ${left.join(", ")} could not be scheduled and stay drafts`;
  return `Imported ${plural(out.drafts.length, "draft")}, but ${which}: ${refusal(out.refused)}`;
}
