/** Rows of a raw query: postgres.js answers an array of rows, PGlite an object holding them. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** A moment a one-row query answers as milliseconds since the epoch (a column named `ms`), or null. */
export function momentOf(result: unknown): Date | null {
  const [row] = rowsOf<{ ms: number | string | null }>(result);
  return row?.ms == null ? null : new Date(Number(row.ms));
}
