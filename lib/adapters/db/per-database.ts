import type { Db } from "./index";

/**
 * `build(db)` once per database (or transaction) object, then the same value: for prepared
 * queries, which drizzle otherwise builds from its query builder on every call (for a
 * select of a draft's many columns, a large share of a fetch_item's CPU: docs/performance.md).
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) built.set(db, (value = build(db)));
    return value;
  };
}
