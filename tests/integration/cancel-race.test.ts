import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { runDue } from "@/lib/adapters/scheduler";
import { postDrafts } from "@/drizzle/schema";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { draft, row, sandboxCount } from "../helpers/publishing";

withDatabase();

// S5 of docs/performance.md: cancelling right around the publish time. Whatever the interleaving, a
// draft whose unschedule succeeded is never posted, and no draft is posted twice.
describe("unschedule racing the scheduler", () => {
  it("never posts a draft after a successful unschedule", async () => {
    const u = await makeUser({ publishing: true });
    const N = 40;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) ids.push((await draft(u, "post", `Race ${i}`)).id);
    // The scheduler runs on an injected clock, so the test decides when the drafts fall due
    // instead of betting on real milliseconds.
    let now = new Date();
    const at = new Date(now.getTime() + 60_000);
    // Scheduling itself is tested elsewhere; here every draft is simply due at `at`.
    await (await db()).update(postDrafts).set({ status: "scheduled", scheduledFor: at }).where(inArray(postDrafts.id, ids));

    let stop = false;
    const scheduler = (async () => {
      while (!stop) {
        // Small batches: claims go on while the cancels arrive.
        await runDue(await db(), { clock: () => now, batch: 2, concurrency: 2 });
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const unschedule = async (id: string) => ({ id, res: await call("unschedule_content", { type: "post", id }, { token: u.token }) });
    // Before the time: these cancels are certain to win.
    const early = await Promise.all(ids.slice(0, N / 2).map(unschedule));
    now = new Date(at.getTime() + 1000);
    // Once the scheduler has claimed one, the rest race it.
    const late = ids.slice(N / 2);
    const claimedOne = async () => (await Promise.all(late.map((id) => row("post", id)))).some((r) => r.status !== "scheduled");
    for (let i = 0; i < 500 && !(await claimedOne()); i++) await new Promise((r) => setTimeout(r, 5));
    const results = [...early, ...(await Promise.all(late.map(unschedule)))];
    // Let anything claimed finish.
    for (let i = 0; i < 500 && (await Promise.all(late.map((id) => row("post", id)))).some((r) => r.status === "publishing"); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    stop = true;
    await scheduler;

    let cancelled = 0;
    for (const { id, res } of results) {
      const posts = await sandboxCount(id);
      expect(posts, id).toBeLessThanOrEqual(1);
      if (res.status === 200 && res.body.unscheduled) {
        cancelled++;
        expect(posts, `draft ${id} was posted after a successful unschedule`).toBe(0);
        expect((await row("post", id)).status).toBe("draft");
      } else {
        // Too late to cancel: it was claimed (422) or already out (unscheduled: false).
        expect([200, 422]).toContain(res.status);
        expect(posts).toBe(1);
      }
    }
    // Both outcomes happen, or the test proves nothing.
    expect(cancelled).toBeGreaterThanOrEqual(N / 2);
    expect(cancelled).toBeLessThan(N);
  });
});
