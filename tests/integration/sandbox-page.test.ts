import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { mediaUrl } from "@/lib/core/media-url";
import { media, postDrafts, sandboxPosts, tweetDrafts } from "@/drizzle/schema";
import SandboxPost from "@/app/sandbox/[platform]/[id]/page";
import { makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { approved, draft } from "../helpers/publishing";

// The sandbox page as a reader sees it (rendered in process; nobody signed in): a thread's
// parts in order, each part's images from /media/{id}, a document's title and page count.

vi.mock("@/lib/transports/auth/session", () => ({ signedInUserId: async () => null }));
vi.mock("next/navigation", () => ({
  notFound: () => {
    throw new Error("NEXT_NOT_FOUND");
  },
}));

withDatabase();

async function stored(u: TestUser, values: { contentType: string; altText?: string; pages?: number; data: Buffer }) {
  const [m] = await (
    await db()
  )
    .insert(media)
    .values({ userId: u.id, bytes: values.data.length, ...values })
    .returning({ id: media.id });
  return { id: m.id, url: mediaUrl(config().origin, m.id) };
}
const render = async (platform: string, id: string) => renderToStaticMarkup(await SandboxPost({ params: Promise.resolve({ platform, id }) }));

describe("sandbox page", () => {
  it("shows a thread's parts in order with their images, whichever part's link is opened", async () => {
    const u = await makeUser({ publishing: true });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#08f" } })
      .png()
      .toBuffer();
    const img = await stored(u, { contentType: "image/png", altText: "Blue square", data: png });
    const tag = randomUUID().slice(0, 8);
    const d = await draft(u, "tweet", `First part ${tag}`);
    const t = tweetDrafts;
    await (
      await db()
    )
      .update(t)
      .set({
        thread: [
          { text: `Second part ${tag}`, image_urls: [img.url] },
          { text: `Third part ${tag}`, image_urls: [] },
        ],
        firstComment: `The link ${tag}`,
      })
      .where(eq(t.id, d.id));
    const res = await approved(u, "publish_now", { type: "tweet", id: d.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = (await (await db()).select().from(sandboxPosts).where(eq(sandboxPosts.draftId, d.id))).sort((a, b) => a.part - b.part);
    // The first comment (part -1) replies to the thread's last part, and shows after it, not as a part.
    expect(rows.map((r) => r.part)).toEqual([-1, 0, 1, 2]);
    expect(rows[0].inReplyTo).toBe(rows[3].id);
    for (const open of [rows[1].id, rows[3].id, rows[0].id]) {
      const html = await render("micro", open);
      const order = ["First part", "Second part", "Third part", "The link"].map((w) => html.indexOf(`${w} ${tag}`));
      expect(order.every((i) => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(html).toContain(`<img src="/media/${img.id}" alt="Blue square"`);
      expect(html).toContain("a thread of 3 parts");
      expect(html).toContain(`>First comment</a>`);
      expect(html).toContain(`aria-current="true"`);
      expect(html).toMatch(new RegExp(`id="${open}"[^>]*aria-current="true"`));
    }
  });

  it("shows a post's document: its title as a link to the file, and its page count", async () => {
    const u = await makeUser({ publishing: true });
    const doc = await stored(u, { contentType: "application/pdf", pages: 12, data: Buffer.from("%PDF-1.4\n%%EOF\n") });
    const d = await draft(u, "post", `A deck ${randomUUID()}`);
    const t = postDrafts;
    await (await db()).update(t).set({ documentUrl: doc.url, documentTitle: "Twelve slides" }).where(eq(t.id, d.id));
    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expect(res.status).toBe(200);
    const html = await render("pronet", String(res.body.url).split("/").pop()!);
    expect(html).toContain(`<a href="/media/${doc.id}">Twelve slides</a> (12 pages)`);
    expect(html).not.toContain("<img");
  });
});
