import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { repeatPasses } from "@/lib/core/passes";

// The background loops (scheduler, webhooks, statistics) rely on this: a pass never overlaps
// the one before, and once stop() has answered no pass runs or starts.
describe("passes of a background loop", () => {
  it("runs passes one after another, waiting what each answers, and stop() waits for the running one", async () => {
    const log: string[] = [];
    let n = 0;
    const passes = repeatPasses(async () => {
      const k = ++n;
      log.push(`start ${k}`);
      await sleep(30); // longer than the wait: a timer-driven loop would start the next one now
      log.push(`end ${k}`);
      return 5;
    });
    // Stopped in the middle of the third pass or a later one.
    await expect.poll(() => n >= 3 && log.at(-1) === `start ${n}`, { interval: 3 }).toBe(true);
    await passes.stop();
    const stoppedAt = log.length;
    expect(log[stoppedAt - 1]).toBe(`end ${n}`); // the running pass finished before stop() answered
    expect(log).toEqual(Array.from({ length: n }, (_, i) => [`start ${i + 1}`, `end ${i + 1}`]).flat());
    await sleep(50);
    expect(log).toHaveLength(stoppedAt); // and none started after
  });
});
