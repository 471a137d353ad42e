import { customType, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { userRef } from "./owner-columns";

/** Raw bytes (PostgreSQL bytea): postgres.js gives a Buffer, PGlite a Uint8Array. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

// An image or PDF the owner uploaded (upload_media). Kept in the database so it works on
// PGlite and PostgreSQL alike and is backed up with everything else. Images are stored
// re-encoded (metadata stripped), never as uploaded.
export const media = pgTable(
  "media",
  {
    id: id(),
    userId: userRef(),
    contentType: text("content_type").notNull(),
    filename: text("filename"),
    altText: text("alt_text"),
    bytes: integer("bytes").notNull(),
    width: integer("width"),
    height: integer("height"),
    pages: integer("pages"),
    // An image's frames: more than one is an animation (X takes one animated GIF a post, never
    // beside other images). Null for PDFs, and for images uploaded before frames were counted.
    frames: integer("frames"),
    data: bytea("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("media_user_idx").on(t.userId, t.createdAt)],
);
