import { createDraftOp } from "./drafts/create-draft";
import type { Operation } from "./define";
import { deleteDraftOp } from "./drafts/delete-draft";
import { importDraftsOp } from "./drafts/import-drafts";
import { importToQueueOp, removeImportOp } from "./in-person/import-to-queue";
import { fetchItemOp } from "./drafts/fetch-item";
import { generatePostOp } from "./generation/generate-post";
import { generateTweetOp } from "./generation/generate-tweet";
import { getAnalyticsOp } from "./analytics/get-analytics";
import { getPostMetricsOp } from "./analytics/get-post-metrics";
import { getProfileContextOp } from "./owner/get-profile-context";
import { listScheduledOp } from "./publishing/list-scheduled";
import { listSeriesOp } from "./series/list-series";
import { listWebhooksOp } from "./webhooks/list-webhooks";
import { manageSeriesOp } from "./series/manage-series";
import { manageWebhooksOp } from "./webhooks/manage-webhooks";
import { publishNowOp } from "./publishing/publish-now";
import { previewPublishOp } from "./publishing/preview-publish";
import { scheduleContentOp } from "./publishing/schedule-content";
import { searchContentOp } from "./drafts/search-content";
import { unscheduleContentOp } from "./publishing/unschedule-content";
import { updateDraftOp } from "./drafts/update-draft";
import { uploadMediaOp } from "./media/upload-media";
import { manageQueueOp } from "./queue/manage-queue";
import { composeOp } from "./in-person/compose";
import { saveDraftOp } from "./in-person/save-draft";
import { scheduleOnDayOp } from "./in-person/schedule-on-day";
import { moveInQueueOp } from "./in-person/move-in-queue";
import { settleUnknownOp } from "./in-person/settle-unknown";
import { editLinkCardOp } from "./in-person/edit-link-card";
import { retryFirstCommentOp } from "./in-person/retry-first-comment";
import { decideApprovalOp } from "./in-person/decide-approval";
import { changeAccountOp } from "./in-person/change-account";
import { resendDeliveryOp } from "./in-person/resend-delivery";
import { assistWritingOp } from "./in-person/assist-writing";
import { changeAppOp } from "./in-person/change-app";
import { setPublishingOp } from "./in-person/set-publishing";
import { setNotificationsOp } from "./in-person/set-notifications";
import { setGettingStartedOp } from "./in-person/set-getting-started";
import { createTokenOp } from "./in-person/create-token";
import { connectAccountOp } from "./in-person/connect-account";

/** Every operation of the API, in the order of docs/interface.md's Operations table. Each surface is a loop over this list. */
export const operations: Operation[] = [
  searchContentOp,
  fetchItemOp,
  listScheduledOp,
  getProfileContextOp,
  getAnalyticsOp,
  getPostMetricsOp,
  generatePostOp,
  generateTweetOp,
  createDraftOp,
  importDraftsOp,
  updateDraftOp,
  uploadMediaOp,
  deleteDraftOp,
  scheduleContentOp,
  unscheduleContentOp,
  previewPublishOp,
  publishNowOp,
  manageQueueOp,
  listSeriesOp,
  manageSeriesOp,
  listWebhooksOp,
  manageWebhooksOp,
] as unknown as Operation[];

/**
 * What only the owner does, in person, on their own pages, through the same door (the pages'
 * transport, lib/transports/owner). Never listed by the API, OpenAPI, MCP or llms.txt.
 */
export const ownerOperations: Operation[] = [
  composeOp,
  saveDraftOp,
  scheduleOnDayOp,
  moveInQueueOp,
  settleUnknownOp,
  editLinkCardOp,
  retryFirstCommentOp,
  decideApprovalOp,
  changeAccountOp,
  resendDeliveryOp,
  assistWritingOp,
  changeAppOp,
  setPublishingOp,
  setNotificationsOp,
  setGettingStartedOp,
  createTokenOp,
  connectAccountOp,
  importToQueueOp,
  removeImportOp,
] as unknown as Operation[];

const byName = new Map(operations.map((op) => [op.name, op]));

export function findOperation(name: string): Operation | undefined {
  return byName.get(name);
}
