import { invalid } from "@/lib/core/errors";
import { storable } from "@/lib/core/time";

// One codec for every list's opaque cursor: base64url JSON holding the list's kind and its
// position. A cursor of another list, a tampered one, or garbage is invalid_request on `cursor`.

type Fields = Record<string, string | number>;

export function encodeCursor(kind: string, fields: Fields): string {
  return Buffer.from(JSON.stringify({ k: kind, ...fields })).toString("base64url");
}

/** The position in `cursor`, as `read` accepts it (undefined: refused). */
export function decodeCursor<T>(cursor: string, kind: string, read: (c: Record<string, unknown>) => T | undefined, message?: string): T {
  try {
    const c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (c && typeof c === "object" && c.k === kind) {
      const v = read(c);
      if (v !== undefined) return v;
    }
  } catch {
    // refused below
  }
  throw invalid([{ path: "cursor", message: message ?? "Unknown cursor: pass next_cursor from the previous page" }]);
}

/** Offsets: safe non-negative integers only (a forged huge one would overflow PostgreSQL's bigint). */
export const offsetOf = (v: unknown): number | undefined => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

/** Times: as the list wrote them (ISO, UTC) and storable (a forged year 0 would be a database error). */
export const timeOf = (v: unknown): string | undefined => {
  if (typeof v !== "string") return undefined;
  const d = new Date(v);
  return !isNaN(d.getTime()) && storable(d) && d.toISOString() === v ? v : undefined;
};
