// Event names and payloads, apart from the client so that senders load Inngest only when used.
export const EVENTS = {
  scheduled: "contentio/draft.scheduled",
  unscheduled: "contentio/draft.unscheduled",
  deleted: "contentio/draft.deleted",
} as const;

export type ScheduledData = { type: "post" | "tweet"; id: string; userId: string; scheduled_for: string };
