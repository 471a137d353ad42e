import { customType, timestamp, uuid } from "drizzle-orm/pg-core";

// Shared column helpers: every table speaks UTC instants and UUID ids.
export const id = () => uuid("id").primaryKey().defaultRandom();
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => at("created_at").notNull().defaultNow();
export const updatedAt = () => at("updated_at").notNull().defaultNow();

/**
 * A PostgreSQL tsvector, only ever written by a generated column. Its GIN indexes are built
 * with fastupdate off: PGlite has no autovacuum to merge a pending list, which every search
 * would otherwise scan (up to 4 MB per table); an insert updates the index directly instead.
 */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
