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

// JSON.stringify writes a lone UTF-16 surrogate (half an emoji, as JSON.parse, a cut string or
// a platform's answer can hold) and NUL as escapes, \udXXX and \u0000, that PostgreSQL's jsonb
// refuses: one such value would fail its whole statement, and with it every row written
// alongside. They become U+FFFD. An escape counts only after an even run of backslashes (an
// odd one means the text itself held a backslash before "u…").
const REFUSED_ESCAPE = /(?<=(?:^|[^\\])(?:\\\\)*)\\u(?:d[89a-f][0-9a-f]{2}|0000)/g;

/** `value` as JSON text that jsonb accepts, for every jsonb column and JSON parameter. */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes("\\u") ? text.replace(REFUSED_ESCAPE, "\\ufffd") : text;
}

/** jsonb, written through jsonText(); read as drizzle's own jsonb reads it. */
export const jsonb = customType<{ data: unknown; driverData: string }>({
  dataType: () => "jsonb",
  toDriver: jsonText,
  fromDriver: (v) => (typeof v === "string" ? JSON.parse(v) : v),
});
