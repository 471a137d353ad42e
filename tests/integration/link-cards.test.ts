import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { computedLinkedInVersion } from "@/lib/adapters/platforms/linkedin-version";
import { approvals } from "@/drizzle/schema";
import { call, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { sniff } from "../helpers/fakes/state";
import { serve } from "../helpers/http-server";
import { png, uploadPng } from "../helpers/media";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, draft } from "../helpers/publishing";
import { asOwner, shownOf } from "../helpers/owner";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ports } from "@/lib/adapters/ports";
import { ensureLinkCard } from "@/lib/domain/drafts/link-card";
import { ownerContext, ownerDraft } from "@/lib/domain/owner/owner";

// LinkedIn builds no preview of a link sent through the Posts API: a LinkedIn post with a link
// and no media carries its card as article content (source, title, description, a thumbnail
// uploaded through the Images API), read from the page's Open Graph tags through the checked
// request before the post is approved, and sent through the real adapter to the fake, which
// holds article content to LinkedIn's documented schema.

withDatabase();
const platforms = withFakePlatforms();
const fake = () => platforms.fake;
let site: { url: string; close: () => Promise<void> };
let cover: Buffer;

beforeAll(async () => {
  cover = await png(40, 21);
  site = await serve(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/essay")
      return new Response(
        `<!doctype html><html><head><title>Fallback</title><meta property="og:title" content="Shipping &amp; learning">` +
          `<meta property="og:description" content="What we learned in a year"><meta property="og:image" content="/cover.png"></head><body>Hi</body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    if (path === "/cover.png") return new Response(new Uint8Array(cover), { headers: { "content-type": "image/png" } });
    return new Response("gone", { status: 404, headers: { "content-type": "text/html" } });
  });
});
afterAll(() => site.close());

async function linkedInUser() {
  const u = await makeUser({ publishing: true });
  const li = await platforms.connect(u, "linkedin");
  return { u, author: `urn:li:person:${li.accountId}` };
}
const notesOf = async (u: TestUser, id: string) =>
  (expectOk(await call("fetch_item", { type: "post", id }, { token: u.token }), fetchItemOp.output) as { notes?: string[] }).notes ?? [];

describe("LinkedIn link cards", () => {
  it("a post with a link carries an article card with the page's title and an uploaded thumbnail, as the owner approved it", async () => {
    const { u, author } = await linkedInUser();
    const d = await draft(u, "post", `Read this ${randomUUID()}: ${site.url}/essay.`);
    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const post = fake().created.linkedin.find((p) => p.body.author === author)!;
    const article = (post.body.content as { article: Record<string, string> }).article;
    expect(article).toMatchObject({ source: `${site.url}/essay`, title: "Shipping & learning", description: "What we learned in a year" });
    const thumb = fake().uploads.get(article.thumbnail)!;
    expect(thumb).toMatchObject({ kind: "image", owner: author, state: "ready" });
    expect(sniff(thumb.bytes!)).toBe("png");
    // The owner approved the card itself: it was part of the approval's content.
    const [a] = await (await db()).select().from(approvals).where(eq(approvals.userId, u.id));
    expect(a.attachments?.link_card).toMatchObject({ source: `${site.url}/essay`, title: "Shipping & learning", image: `${site.url}/cover.png` });
    expect((await notesOf(u, d.id)).join(" ")).toContain("Link card: “Shipping & learning” (What we learned in a year), with its picture.");
  });

  it("the owner sees the card on the item page before approving it, and may change its title and description", async () => {
    const { u, author } = await linkedInUser();
    const d = await draft(u, "post", `Edited card ${randomUUID()} ${site.url}/essay`);
    // The item page reads the card when it is drawn (the sandbox reads none).
    await ensureLinkCard(await db(), ports(), u.id, d.id);
    const me = (await getProfile(await db(), u.id))!;
    const page = await ownerDraft(ownerContext(await db(), { id: u.id, ...me }, ports()), "post", d.id);
    expect(page?.card?.usable).toMatchObject({ title: "Shipping & learning", image: `${site.url}/cover.png` });

    // A change on top of content the page did not show is refused; on what it showed, saved.
    const stale = await asOwner(u, "edit_link_card", { id: d.id, title: "Ours", description: "Our words" }, { shown: "not-this" });
    expect(stale.status, JSON.stringify(stale.body)).toBe(422);
    // A forged form that names no content at all changes nothing either.
    const blind = await asOwner(u, "edit_link_card", { id: d.id, title: "Ours", description: "Our words" });
    expect(blind.status, JSON.stringify(blind.body)).toBe(422);
    const shown = await shownOf("post", d.id);
    const ok = await asOwner(u, "edit_link_card", { id: d.id, title: "Our title", description: "Our words" }, { shown });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const post = fake().created.linkedin.find((p) => p.body.author === author)!;
    expect((post.body.content as { article: Record<string, string> }).article).toMatchObject({ title: "Our title", description: "Our words" });
    // Published: the card is what went out, no longer changed.
    const late = await asOwner(u, "edit_link_card", { id: d.id, title: "Later", description: "" }, { shown: await shownOf("post", d.id) });
    expect(late.status).toBe(422);
  });

  it("a page that cannot be read: the post goes without a card, and the item says so", async () => {
    const { u, author } = await linkedInUser();
    const d = await draft(u, "post", `Missing page ${randomUUID()} ${site.url}/nothing-here`);
    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const post = fake().created.linkedin.find((p) => p.body.author === author)!;
    expect(post.body.content).toBeUndefined();
    expect((await notesOf(u, d.id)).join(" ")).toContain(`No link card: ${site.url}/nothing-here could not be read (the page answered 404)`);
  });

  it("a post with an image carries the image, not a card", async () => {
    const { u, author } = await linkedInUser();
    const up = await uploadPng(u);
    const res0 = await call("create_draft", { type: "post", body: `Pictured ${randomUUID()} ${site.url}/essay`, image_urls: [up.url] }, { token: u.token });
    const res = await approved(u, "publish_now", { type: "post", id: res0.body.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const post = fake().created.linkedin.find((p) => p.body.author === author)!;
    expect(Object.keys(post.body.content as object)).toEqual(["media"]);
  });

  it("the fake holds article content to LinkedIn's schema: a title and a source are required, a thumbnail is an uploaded image", async () => {
    const u = await makeUser({ publishing: true });
    const { accountId, access } = await platforms.connect(u, "linkedin");
    const send = (article: unknown) =>
      fetch(`${fake().url}/rest/posts`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${access}`,
          "content-type": "application/json",
          "linkedin-version": computedLinkedInVersion(new Date()),
          "x-restli-protocol-version": "2.0.0",
        },
        body: JSON.stringify({
          author: `urn:li:person:${accountId}`,
          commentary: "x",
          visibility: "PUBLIC",
          distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: "PUBLISHED",
          isReshareDisabledByAuthor: false,
          content: { article },
        }),
      });
    expect((await send({ source: "https://example.com/a" })).status).toBe(400);
    expect((await send({ source: "https://example.com/a", title: "T", thumbnail: "urn:li:image:nope" })).status).toBe(400);
    expect((await send({ source: "https://example.com/a", title: "T", url: "https://example.com/a" })).status).toBe(400);
    expect((await send({ source: "https://example.com/a", title: "T", description: "D" })).status).toBe(201);
    expect(fake().badRequests.splice(0)).toEqual([
      "article title is required",
      "article thumbnail urn:li:image:nope is not an uploaded image",
      "article keys source,title,url",
    ]);
  });
});
