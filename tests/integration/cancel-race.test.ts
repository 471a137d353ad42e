import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runDue } from "@/lib/scheduler";
import { postDrafts } from "@/drizzle/schema";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { draft, row, sandboxCount } from "../helpers/publishing";

withDatabase();

// Quality plan S5: cancelling right around the publish time. Whatever the interleaving, a
// draft whose unschedule succeeded is never posted, and no draft is posted twice.
describe("unschedule racing the scheduler", () => {
  it("never posts a draft after a successful unschedule", async () => {
    const u = await makeUser({ publishing: true });
    const N = 40;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) ids.push((await draft(u, "post", `Race ${i}`)).id);
    const at = new Date(Date.now() + 1500);
    // Scheduling itself is tested elsewhere; here every draft is simply due at `at`.
    await (await db()).update(postDrafts).set({ status: "scheduled", scheduledFor: at }).where(inArray(postDrafts.id, ids));

    let stop = false;
    const scheduler = (async () => {
      while (!stop) {
        await runDue(await db());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const results = await Promise.all(
      ids.map(async (id, i) => {
        // Spread the cancels from 100 ms before to 100 ms after the publish time.
        const offset = -100 + (200 * i) / (N - 1);
        await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() + offset - Date.now())));
        const res = await call("unschedule_content", { type: "post", id }, { token: u.token });
        return { id, res };
      }),
    );
    await new Promise((r) => setTimeout(r, 1500)); // let anything claimed finish
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
    // Both outcomes happen in this window, or the test proves nothing.
    expect(cancelled).toBeGreaterThan(0);
    expect(cancelled).toBeLessThan(N);
  });
});
