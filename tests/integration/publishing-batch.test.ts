import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { recordMany } from "@/lib/domain/publishing/batch";
import { postDrafts } from "@/drizzle/schema";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { draft, row } from "../helpers/publishing";

withDatabase();

// The scheduler writes a pass's outcomes in one transaction: an outcome that cannot be written
// must not undo the others (they would all go unknown, posted ones without their links).
describe("recordMany", () => {
  it("writes every outcome it can; one that fails stays publishing, one that met a deadlock is tried again, the batch's others stand", async () => {
    const u = await makeUser();
    const [stuck, failed, published, retried] = [await draft(u), await draft(u), await draft(u), await draft(u)];
    const d = await db();
    await d.update(postDrafts).set({ status: "publishing" }).where(eq(postDrafts.userId, u.id));
    const claimed = async (id: string) => ({ ...(await row("post", id)), type: "post" as const });
    // A write that always fails for one draft, and one that meets a deadlock once (a sequence
    // counts outside the transaction).
    await d.execute(sql.raw(`create sequence refuse_once`));
    await d.execute(
      sql.raw(`create function refuse_one() returns trigger language plpgsql as $$
      begin
        if new.id = '${stuck.id}' then raise exception 'refused'; end if;
        if new.id = '${retried.id}' and nextval('refuse_once') = 1 then raise exception 'deadlock detected' using errcode = '40P01'; end if;
        return new;
      end $$`),
    );
    await d.execute(sql.raw(`create trigger refuse_one before update on post_drafts for each row execute function refuse_one()`));
    try {
      const at = new Date();
      const no = { status: "failed" as const, platform: "pronet" as const, reason: "LinkedIn refused the post (400)." };
      const [s, f, p, r] = [await claimed(stuck.id), await claimed(failed.id), await claimed(published.id), await claimed(retried.id)];
      const linked = {
        status: "published" as const,
        platform: "pronet" as const,
        postId: "urn:li:share:1",
        url: "https://www.linkedin.com/feed/update/urn:li:share:1",
      };
      await d.transaction((tx) =>
        recordMany(tx, [
          { c: s, o: no, at },
          { c: f, o: no, at },
          { c: p, o: linked, at },
          { c: r, o: no, at },
        ]),
      );
    } finally {
      await d.execute(sql.raw(`drop trigger refuse_one on post_drafts`));
      await d.execute(sql.raw(`drop function refuse_one()`));
      await d.execute(sql.raw(`drop sequence refuse_once`));
    }
    expect((await row("post", stuck.id)).status).toBe("publishing");
    expect(await row("post", failed.id)).toMatchObject({ status: "failed", failureReason: "LinkedIn refused the post (400)." });
    expect(await row("post", published.id)).toMatchObject({ status: "published", platformPostId: "urn:li:share:1" });
    expect(await row("post", retried.id)).toMatchObject({ status: "failed" });
  });
});
