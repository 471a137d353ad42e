// The background loops (scheduler, webhook deliverer, planner statistics) all run passes one
// after another: a pass now, the next one a wait after it ends (never two at once, however
// long a pass takes), until stopped.

export type Passes = { stop: () => Promise<void> };

/**
 * Runs `pass` now, then again `wait` ms (its answer) after each pass ends. `pass` handles its
 * own failures and never rejects. `stop()` cancels the next pass and waits for a running one.
 * The timers do not keep the process alive.
 */
export function repeatPasses(pass: () => Promise<number>): Passes {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    if (stopped) return;
    running = pass().then((wait) => {
      if (stopped) return;
      timer = setTimeout(loop, wait);
      timer.unref();
    });
  };
  loop();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
