import { getTableColumns, type Table } from "drizzle-orm";

/** A table's columns without its search vector, which nothing but search reads. */
export function readable<T extends Table>(t: T) {
  const { search: _search, ...cols } = getTableColumns(t) as Record<string, unknown>;
  return cols as Omit<T["_"]["columns"], "search">;
}
