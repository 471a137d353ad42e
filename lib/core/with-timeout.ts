// A promise bounded in time.

/** What `withTimeout` rejects with when the time ran out. */
export const TIMED_OUT = new Error("timed out");

/** `work`, or a rejection with TIMED_OUT once `ms` have passed (the work itself is left to finish or fail). */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(TIMED_OUT), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
