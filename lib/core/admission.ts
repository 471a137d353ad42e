// Admission control for costly work in this process (decoding an upload, say): at most `slots`
// run at once and at most `line` wait for a slot, in order of arrival. Anything more is refused
// at once (`refuse()`), so a burst costs its callers a quick retry instead of an ever longer
// queue that holds their requests, and their memory, until they time out.

export class Admission {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly slots: number,
    private readonly line: number,
    private readonly refuse: () => Error,
  ) {}

  /** How many wait for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `work` once a slot is free; throws `refuse()` without running it when the line is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.slots) this.running++;
    else if (this.queue.length < this.line) await new Promise<void>((admit) => this.queue.push(admit));
    else throw this.refuse();
    try {
      return await work();
    } finally {
      // The slot passes straight to the first in line, so no newcomer can take it in between.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
