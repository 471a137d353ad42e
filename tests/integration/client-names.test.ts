import fs from "node:fs";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { oauthClients } from "@/drizzle/schema";
import { withDatabase } from "../helpers/db";

withDatabase();

// Names registered before they were checked are cleaned by migration 0014: what disguises a
// name goes, what belongs to it (an emoji's joiner, accents) stays.
const CLEAN = fs.readFileSync(path.join(process.cwd(), "drizzle", "migrations", "0014_clean_client_names.sql"), "utf8");

describe("app names stored before they were checked", () => {
  it("lose bidi overrides, zero-width spaces and controls; a name of nothing else becomes Unnamed app", async () => {
    const d = await db();
    const names = ["Claude\u202Eexe.gnp", "\u2066Cla\u200Bude\u2069 Desk\u0007", "Dev 👩‍💻 Café", "\u200B\uFEFF", "Plain app"];
    const rows = await d
      .insert(oauthClients)
      .values(names.map((name) => ({ name })))
      .returning({ id: oauthClients.id });
    await d.execute(sql.raw(CLEAN));
    const after = await d
      .select({ id: oauthClients.id, name: oauthClients.name })
      .from(oauthClients)
      .where(
        inArray(
          oauthClients.id,
          rows.map((r) => r.id),
        ),
      );
    const byId = new Map(after.map((r) => [r.id, r.name]));
    expect(rows.map((r) => byId.get(r.id))).toEqual(["Claudeexe.gnp", "Claude Desk", "Dev 👩‍💻 Café", "Unnamed app", "Plain app"]);
  });
});
