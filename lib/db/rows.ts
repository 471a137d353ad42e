/** Rows of a raw query: postgres.js answers an array of rows, PGlite an object holding them. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
