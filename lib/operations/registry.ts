import { createDraftOp } from "./create-draft";
import type { Operation } from "./define";
import { deleteDraftOp } from "./delete-draft";
import { fetchItemOp } from "./fetch-item";
import { generatePostOp } from "./generate-post";
import { generateTweetOp } from "./generate-tweet";
import { getAnalyticsOp } from "./get-analytics";
import { getProfileContextOp } from "./get-profile-context";
import { listScheduledOp } from "./list-scheduled";
import { listSeriesOp } from "./list-series";
import { listWebhooksOp } from "./list-webhooks";
import { manageSeriesOp } from "./manage-series";
import { manageWebhooksOp } from "./manage-webhooks";
import { publishNowOp } from "./publish-now";
import { scheduleContentOp } from "./schedule-content";
import { searchContentOp } from "./search-content";
import { unscheduleContentOp } from "./unschedule-content";
import { updateDraftOp } from "./update-draft";
import { uploadMediaOp } from "./upload-media";

/** Every operation of the API, in the spec's order. Each surface is a loop over this list. */
export const operations: Operation[] = [
  searchContentOp,
  fetchItemOp,
  listScheduledOp,
  getProfileContextOp,
  getAnalyticsOp,
  generatePostOp,
  generateTweetOp,
  createDraftOp,
  updateDraftOp,
  uploadMediaOp,
  deleteDraftOp,
  scheduleContentOp,
  unscheduleContentOp,
  publishNowOp,
  listSeriesOp,
  manageSeriesOp,
  listWebhooksOp,
  manageWebhooksOp,
] as unknown as Operation[];

const byName = new Map(operations.map((op) => [op.name, op]));

export function findOperation(name: string): Operation | undefined {
  return byName.get(name);
}
