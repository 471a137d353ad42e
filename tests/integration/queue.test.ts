import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { replacePorts } from "@/lib/adapters/ports";
import { isoInZone } from "@/lib/core/time";
import { ownAccount } from "@/lib/domain/accounts/accounts";
import { freeSlots } from "@/lib/domain/queue/queue";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { getProfileContextOp } from "@/lib/operations/owner/get-profile-context";
import { manageQueueOp } from "@/lib/operations/queue/manage-queue";
import { scheduleContentOp } from "@/lib/operations/publishing/schedule-content";
import { users } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { mcpClient } from "../helpers/mcp";
import { approved, row } from "../helpers/publishing";

// An account's posting queue: weekly slots on the owner's wall clock, filled in order by
// schedule_content with slot "next", one draft a slot, across daylight-saving changes.

withDatabase();

const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const TZ = "Europe/Berlin";
const EVERY_HOUR = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].flatMap((weekday) =>
  Array.from({ length: 24 }, (_, h) => ({ weekday, time: `${String(h).padStart(2, "0")}:15` })),
);

async function owner() {
  const u = await makeUser({ publishing: true });
  await (await db()).update(users).set({ timezone: TZ }).where(eq(users.id, u.id));
  // Connections that renew themselves: a slot hours ahead is after an access token's expiry.
  await platforms.connect(u, "twitter", { refresh: `r-${randomUUID()}` });
  await platforms.connect(u, "twitter", { refresh: `r-${randomUUID()}` });
  const profile = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
  const [x1, x2] = (profile.accounts as { account_id: string; platform: string }[]).filter((a) => a.platform === "micro");
  return { u, x1: x1.account_id, x2: x2.account_id };
}

const queue = async (u: TestUser, args: Record<string, unknown>) =>
  expectOk(await call("manage_queue", args, { token: u.token }), manageQueueOp.output) as {
    slots: { weekday: string; time: string }[];
    paused: boolean;
    next_slots: string[];
    timezone: string;
  };
const tweet = async (u: TestUser, body: string, account_id?: string) =>
  (expectOk(await call("create_draft", { type: "tweet", body, ...(account_id && { account_id }) }, { token: u.token }), createDraftOp.output) as { id: string })
    .id;

describe("posting queue", () => {
  it("keeps 09:00 at 09:00 across a daylight-saving change; a skipped hour's slot moves on, a repeated hour's is taken once", async () => {
    const { u, x1 } = await owner();
    const account = await ownAccount(await db(), u.id, x1);
    const slots = [
      { weekday: "fri" as const, time: "09:00" },
      { weekday: "sun" as const, time: "02:30" },
      { weekday: "mon" as const, time: "09:00" },
    ];
    const spring = await freeSlots(await db(), u.id, account, { slots, tz: TZ, after: new Date("2027-03-25T00:00:00Z"), count: 4 });
    expect(spring.map((d) => isoInZone(d, TZ))).toEqual([
      "2027-03-26T09:00:00+01:00",
      "2027-03-28T03:30:00+02:00", // 02:30 does not exist that night: the clocks go from 02:00 to 03:00
      "2027-03-29T09:00:00+02:00",
      "2027-04-02T09:00:00+02:00",
    ]);
    expect(spring.map((d) => d.toISOString())).toEqual([
      "2027-03-26T08:00:00.000Z",
      "2027-03-28T01:30:00.000Z",
      "2027-03-29T07:00:00.000Z",
      "2027-04-02T07:00:00.000Z",
    ]);
    const autumn = await freeSlots(await db(), u.id, account, { slots, tz: TZ, after: new Date("2027-10-29T00:00:00Z"), count: 3 });
    expect(autumn.map((d) => isoInZone(d, TZ))).toEqual(["2027-10-29T09:00:00+02:00", "2027-10-31T02:30:00+01:00", "2027-11-01T09:00:00+01:00"]);
  });

  it("slot next fills the slots in order through a daylight-saving change, each at its wall-clock time", async () => {
    const { u, x1 } = await owner();
    // The service's clock a day before Europe/Berlin's clocks go forward (2027-03-28); the
    // owner approves at that time too.
    const now = new Date("2027-03-26T10:00:00Z");
    replacePorts({ clock: () => now });
    const approvedThen = async (args: Record<string, unknown>) => {
      const first = await call("schedule_content", args, { token: u.token });
      expectError(first, 403, "confirmation_required");
      expect(await decideApproval(await db(), u.id, first.body.error.confirmation.id, "approved", now)).toBe(true);
      return call("schedule_content", args, { token: u.token });
    };
    try {
      await queue(u, {
        account_id: x1,
        slots: [
          { weekday: "sat", time: "09:00" },
          { weekday: "sun", time: "09:00" },
          { weekday: "mon", time: "09:00" },
        ],
      });
      const got: string[] = [];
      for (const n of [1, 2, 3]) {
        const id = await tweet(u, `Across the change ${n} ${randomUUID()}`);
        const ok = expectOk(await approvedThen({ type: "tweet", id, slot: "next" }), scheduleContentOp.output);
        got.push(isoInZone(new Date(ok.scheduled_for), TZ));
      }
      expect(got).toEqual(["2027-03-27T09:00:00+01:00", "2027-03-28T09:00:00+02:00", "2027-03-29T09:00:00+02:00"]);
    } finally {
      replacePorts();
    }
  });

  it("reads and sets an account's slots; slot next fills them in order, one draft a slot, each approval naming its time", async () => {
    const { u, x1, x2 } = await owner();
    expect(await queue(u, { account_id: x1 })).toEqual({ account_id: x1, timezone: TZ, slots: [], paused: false, next_slots: [] });
    const set = await queue(u, { account_id: x1, slots: [...EVERY_HOUR].reverse() });
    expect(set.slots[0]).toEqual({ weekday: "mon", time: "00:15" }); // kept in the week's order
    expect(set.next_slots).toHaveLength(5);
    for (const s of set.next_slots) expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:15:00\+0[12]:00$/);
    const free = set.next_slots.map((s) => new Date(s).toISOString());

    const ids = [await tweet(u, `Queued one ${randomUUID()}`), await tweet(u, `Queued two ${randomUUID()}`)];
    for (const [i, id] of ids.entries()) {
      const first = await call("schedule_content", { type: "tweet", id, slot: "next" }, { token: u.token });
      expectError(first, 403, "confirmation_required");
      expect(first.body.error.confirmation.action.scheduled_for).toBe(free[i]); // the approval shows the resolved time
      const ok = expectOk(await approved(u, "schedule_content", { type: "tweet", id, slot: "next" }), scheduleContentOp.output);
      expect(ok.scheduled_for).toBe(free[i]);
    }
    // Asking again for a queued draft keeps its slot.
    expect(expectOk(await approved(u, "schedule_content", { type: "tweet", id: ids[0], slot: "next" }), scheduleContentOp.output).scheduled_for).toBe(free[0]);
    expect((await queue(u, { account_id: x1 })).next_slots.map((s) => new Date(s).toISOString())).toEqual(
      free.slice(2, 5).concat(expect.any(String), expect.any(String)),
    );
    // Another account's queue is its own: x2 has none.
    const other = await tweet(u, `Other account ${randomUUID()}`, x2);
    const none = await call("schedule_content", { type: "tweet", id: other, slot: "next" }, { token: u.token });
    expectError(none, 422, "action_failed");
    expect(none.body.error.hint).toContain("manage_queue");

    // Changing the slots moves nothing already scheduled.
    await queue(u, { account_id: x1, slots: [{ weekday: "wed", time: "07:00" }] });
    expect((await row("tweet", ids[1])).scheduledFor?.toISOString()).toBe(free[1]);
  });

  it("a paused queue takes no draft, with a hint to resume it, and changes nothing", async () => {
    const { u, x1 } = await owner();
    const paused = await queue(u, { account_id: x1, slots: EVERY_HOUR, paused: true });
    expect(paused).toMatchObject({ paused: true, next_slots: [] });
    const id = await tweet(u, `Paused ${randomUUID()}`);
    const res = await call("schedule_content", { type: "tweet", id, slot: "next" }, { token: u.token });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toContain("paused");
    expect((await row("tweet", id)).status).toBe("draft");
    expect((await queue(u, { account_id: x1, paused: false })).next_slots).toHaveLength(5);
  });

  it("over MCP as over REST: manage_queue sets and reads the slots, and schedule_content offers slot next", async () => {
    const { u, x1 } = await owner();
    const client = await mcpClient(u.token);
    const structured = (r: unknown) => (r as { structuredContent: Record<string, unknown> }).structuredContent;
    const set = structured(await client.callTool({ name: "manage_queue", arguments: { account_id: x1, slots: [{ weekday: "tue", time: "08:00" }] } }));
    expect(set).toMatchObject({ account_id: x1, timezone: TZ, slots: [{ weekday: "tue", time: "08:00" }], paused: false });
    expect(set.next_slots).toHaveLength(5);
    const tools = (await client.listTools()).tools;
    expect(Object.keys(tools.find((t) => t.name === "schedule_content")!.inputSchema.properties ?? {})).toContain("slot");
    const other = await makeUser();
    const refused = await mcpClient(other.token).then((c) => c.callTool({ name: "manage_queue", arguments: { account_id: x1 } }));
    expect(refused.isError).toBe(true);
  });

  it("refuses a body with both scheduled_for and slot, or neither, and a slot time that is not HH:MM", async () => {
    const { u, x1 } = await owner();
    const id = await tweet(u, "Either or");
    expectError(
      await call("schedule_content", { type: "tweet", id, slot: "next", scheduled_for: new Date(Date.now() + 3600_000).toISOString() }, { token: u.token }),
      400,
      "invalid_request",
    );
    expectError(await call("schedule_content", { type: "tweet", id }, { token: u.token }), 400, "invalid_request");
    expectError(await call("manage_queue", { account_id: x1, slots: [{ weekday: "mon", time: "24:00" }] }, { token: u.token }), 400, "invalid_request");
    expectError(await call("manage_queue", { account_id: x1, slots: [{ weekday: "monday", time: "09:00" }] }, { token: u.token }), 400, "invalid_request");
    expect((await queue(u, { account_id: x1 })).slots).toEqual([]);
  });
});
