import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { planHash, planImport, recentImports } from "@/lib/domain/drafts/import";
import { ownerContext } from "@/lib/domain/owner/owner";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { parseRows } from "@/lib/operations/drafts/import-drafts";
import { partlyScheduled } from "@/lib/transports/owner/import-outcome";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { asOwner } from "../helpers/owner";
import { withFakePlatforms } from "../helpers/platform-fixture";

// The Import page's confirm when only some drafts can be scheduled: the owner confirmed each
// schedule, so each that can be is scheduled, the others stay drafts, and the owner is told
// which rows and why, in the page's words.

withDatabase();
const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });

describe("the Import page's confirm, partly scheduled", () => {
  it("schedules every draft it can, keeps the rest as drafts, and names them with the reason", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "linkedin", { refresh: `r-${randomUUID()}` });
    // X connected long ago, without the permission to post: scheduling there is refused.
    await platforms.connect(u, "twitter", { refresh: `r-${randomUUID()}`, scopes: ["tweet.read", "users.read", "offline.access"] });
    const at = (days: number) => new Date(Date.now() + days * 86400_000).toISOString();
    const rows = [
      { network: "linkedin", text: "Monday's post", scheduled_for: at(1) },
      { network: "x", text: "A tweet X will not take", scheduled_for: at(2) },
      { network: "linkedin", text: "Wednesday's post", scheduled_for: at(3) },
    ];
    const ctx = ownerContext(await db(), { id: u.id, ...(await getProfile(await db(), u.id))! }, ports());
    const parsed = parseRows(rows);
    const plan = await planImport(ctx, parsed.rows, parsed.problems, { queue: true });
    expect(plan.problems).toEqual([]);

    const done = await asOwner(u, "import_to_queue", { rows }, { shown: planHash(plan.planned) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    // The rows after the refused one are scheduled too: each was confirmed on its own.
    expect(done.body.drafts.map((d: { scheduled_for: string | null }) => d.scheduled_for)).toEqual([
      new Date(rows[0].scheduled_for).toISOString(),
      null,
      new Date(rows[2].scheduled_for).toISOString(),
    ]);
    expect(done.body.refused).toMatchObject({ code: "action_failed", message: expect.stringMatching(/X/) });

    // What the owner is told beside the form, and what the import shows below it.
    expect(partlyScheduled(done.body)).toBe(
      `Imported 3 drafts, but row 2 could not be scheduled and stays a draft: ${done.body.refused.message} ${done.body.refused.hint}`,
    );
    const [view] = await recentImports(ctx);
    expect(view.drafts.map((d) => [d.row, d.status])).toEqual([
      [1, "scheduled"],
      [2, "draft"],
      [3, "scheduled"],
    ]);
    const tweet = await call("fetch_item", { type: "tweet", id: done.body.drafts[1].id }, { token: u.token });
    expect(tweet.body).toMatchObject({ status: "draft", scheduled_for: null });
  });
});
