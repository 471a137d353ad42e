import { createDraftOp } from "./create-draft";
import type { Operation } from "./define";
import { deleteDraftOp } from "./delete-draft";
import { fetchItemOp } from "./fetch-item";
import { searchContentOp } from "./search-content";
import { updateDraftOp } from "./update-draft";

/** Every operation of the API, in the spec's order. Each surface is a loop over this list. */
export const operations: Operation[] = [
  searchContentOp,
  fetchItemOp,
  createDraftOp,
  updateDraftOp,
  deleteDraftOp,
] as unknown as Operation[];

const byName = new Map(operations.map((op) => [op.name, op]));

export function findOperation(name: string): Operation | undefined {
  return byName.get(name);
}
