import { z } from "zod";
import { moveInQueue } from "@/lib/domain/queue/move";
import { defineOperation } from "../define";
import { DraftType, Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const moveInQueueOp = defineOperation({
  name: "move_in_queue",
  title: "Move a queued draft",
  summary: "The queue page's Move",
  description:
    'Moves a queued draft to a free slot the queue page offered, or with "end" to the first free slot after its account\'s last queued ' +
    "draft. The queue shows titles only, so only content the owner has seen in full moves.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  input: z.strictObject({ type: DraftType, id: Uuid, to: z.string().max(40) }),
  output: z.strictObject({ id: z.string(), type: DraftType, scheduled_for: z.string(), rescheduled: z.boolean() }),
  run: (ctx, input) => moveInQueue(ctx, input),
});
