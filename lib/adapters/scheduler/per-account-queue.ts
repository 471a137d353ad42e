// Claimed drafts waiting for a platform call, one lane per account (user and network). A pass
// runs many calls at once, but one account gets at most `perKey` of them: platforms limit
// each account's rate, and a backlog of one owner must not take every call slot from the
// others. Accounts take turns, so owners with few drafts are not queued behind a big one.

type Lane<T> = { items: T[]; running: number };

export class PerAccountQueue<T> {
  private lanes = new Map<string, Lane<T>>();
  private waiting: (() => void)[] = [];
  /** Drafts queued (not yet taken). */
  size = 0;

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly perKey: number,
  ) {}

  push(items: T[]) {
    for (const item of items) {
      const k = this.keyOf(item);
      let lane = this.lanes.get(k);
      if (!lane) this.lanes.set(k, (lane = { items: [], running: 0 }));
      lane.items.push(item);
    }
    this.size += items.length;
    this.wake(items.length);
  }

  /** The next draft of an account below its limit (it then counts as running), or undefined. */
  take(): T | undefined {
    for (const [k, lane] of this.lanes) {
      if (!lane.items.length || lane.running >= this.perKey) continue;
      lane.running++;
      this.size--;
      // To the back of the turn order.
      this.lanes.delete(k);
      this.lanes.set(k, lane);
      return lane.items.shift();
    }
    return undefined;
  }

  /** A taken draft's call has ended: its account may run another. */
  done(item: T) {
    const k = this.keyOf(item);
    const lane = this.lanes.get(k);
    if (!lane) return;
    lane.running--;
    if (!lane.running && !lane.items.length) this.lanes.delete(k);
    // One slot for one worker; with nothing queued, every waiter must look (to finish or claim).
    this.wake(this.size ? 1 : this.waiting.length);
  }

  /** Resolves when a call ends or drafts arrive (for a worker that found nothing to take). */
  changed(): Promise<void> {
    return new Promise((r) => this.waiting.push(r));
  }

  /** As many waiting workers as there is new work for (waking all of them costs a scan each). */
  private wake(n: number) {
    for (const w of this.waiting.splice(0, n)) w();
  }
}
