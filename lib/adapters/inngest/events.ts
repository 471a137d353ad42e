// Event names and payloads, apart from the client so that senders load Inngest only when used.
export const EVENTS = {
  scheduled: "contentio/draft.scheduled",
  unscheduled: "contentio/draft.unscheduled",
  deleted: "contentio/draft.deleted",
} as const;

import { z } from "zod";

/** contentio/draft.scheduled and .unscheduled: which draft, whose, and for which time. */
export const ScheduledData = z.object({
  type: z.enum(["post", "tweet"]),
  id: z.uuid(),
  userId: z.uuid(),
  scheduled_for: z.iso.datetime({ offset: true }),
});
export type ScheduledData = z.infer<typeof ScheduledData>;

/** contentio/draft.deleted. */
export const DeletedData = ScheduledData.omit({ scheduled_for: true });
export type DeletedData = z.infer<typeof DeletedData>;
