import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { pdf } from "../helpers/media";
import { axe, forgedForm, openSignedIn, screenshots, userInBrowser } from "./browser";
import { TestServer } from "./harness";

// The composer's files and AI help: images dropped or picked with a progress bar, reordered
// and described, a PDF for the post, a refused file named at the file; the offline composer
// writing, shortening and threading in the owner's voice; and the upload address refusing a
// request that is not the owner's page.

const srv = new TestServer();
const OWNER = { email: "maker@example.com", password: "correct horse battery" };

const app = userInBrowser(srv, { ...OWNER, name: "Mira Maker", app: "Reader" });
const { newPage } = app;
const api = async (op: string, body: unknown) => srv.api(op, body, app.token);

const png = async (colour: string) => ({
  name: `${colour}.png`,
  mimeType: "image/png",
  buffer: await sharp({ create: { width: 60, height: 40, channels: 3, background: colour } })
    .png()
    .toBuffer(),
});

const deck = async () => ({ name: "deck.pdf", mimeType: "application/pdf", buffer: await pdf(2) });

describe("the composer's files", () => {
  it("uploads images with progress, reorders and describes them, names a refused file, and saves them in order with their descriptions", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    await page.locator("#post_body").fill("Three colours.");
    await page.getByLabel("Images or a PDF for the post").setInputFiles([await png("red"), await png("blue")]);
    const files = page.getByRole("list", { name: "Files for the post" });
    // Stored: each shows its thumbnail and asks for its description.
    await expect.poll(() => files.locator("img").count()).toBe(2);
    expect(await files.getByRole("progressbar").count()).toBe(0);
    // The reminder stays until each has a description.
    expect(await files.getByText("Add a description").count()).toBe(2);
    await page.getByLabel("Description of red.png (alt text)").fill("A red square");
    await page.getByLabel("Description of blue.png (alt text)").fill("A blue square");
    expect(await files.getByText("Add a description").count()).toBe(0);
    await page.getByRole("button", { name: "Move blue.png earlier" }).click();
    // The preview shows the first image, described.
    const preview = page.getByRole("figure", { name: "Preview as LinkedIn shows it" });
    expect(await preview.getByRole("img", { name: "A blue square" }).count()).toBe(1);

    // A file the service does not take is named where it was added; nothing else changes.
    await page
      .getByLabel("Images or a PDF for the post")
      .setInputFiles({ name: "notes.svg", mimeType: "image/svg+xml", buffer: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>") });
    await expect.poll(() => files.getByRole("alert").textContent()).toContain("notes.svg: a PNG, JPEG, GIF or WebP image, or a PDF is needed.");
    await page.getByRole("button", { name: "Remove notes.svg" }).click();
    // A PDF is refused beside images, at the file.
    await page.getByLabel("Images or a PDF for the post").setInputFiles(await deck());
    await expect.poll(() => files.getByRole("alert").textContent()).toContain("deck.pdf: a post carries one PDF or images, not both.");
    await page.getByRole("button", { name: "Remove deck.pdf" }).click();

    // A reload keeps the stored files and their descriptions.
    await page.reload();
    await expect.poll(() => page.getByLabel("Description of blue.png (alt text)").inputValue()).toBe("A blue square");
    await axe(page);
    await screenshots(page, "composer-files");

    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/content\/post\/[^/?]+\?done=saved$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const post = (await api("fetch_item", { type: "post", id })).body;
    expect(post.image_urls).toHaveLength(2);
    // In the chosen order, each with the description given in the composer.
    expect(await page.getByText("Posted with the description: “A blue square”").count()).toBe(1);
    const described = await page.locator(".described").allTextContents();
    expect(described).toEqual(["Posted with the description: “A blue square”", "Posted with the description: “A red square”"]);
    await page.close();
  }, 180_000);

  it("gives each part of a thread its images, and a post its PDF with a title", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    await page.getByLabel("Images or a PDF for the post").setInputFiles(await deck());
    await expect.poll(() => page.getByLabel("Title of the document, as LinkedIn shows it").count()).toBe(1);
    await page.getByLabel("Title of the document, as LinkedIn shows it").fill("The deck");
    await page.locator("#post_body").fill("Slides inside.");
    await page.getByRole("checkbox", { name: "Sandbox for X" }).check();
    await page.getByLabel("Text", { exact: true }).nth(1).fill("One.");
    await page.getByRole("button", { name: "Add a part" }).click();
    await page.getByLabel("Part 2", { exact: true }).fill("Two, with a picture.");
    await page.getByLabel("Images for part 2").setInputFiles([await png("green")]);
    await expect.poll(() => page.getByRole("list", { name: "Files for part 2" }).locator("img").count()).toBe(1);
    await page.getByLabel("Description of green.png (alt text)").fill("A green square");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/content\/post\/[^/?]+\?done=saved$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    expect((await api("fetch_item", { type: "post", id })).body).toMatchObject({
      document_title: "The deck",
      document_url: expect.stringContaining("/media/"),
    });
    const found = (await api("search_content", { types: ["tweet"], query: "One" })).body.results as { id: string }[];
    const tweet = (await api("fetch_item", { type: "tweet", id: found[0].id })).body;
    expect(tweet.image_urls ?? []).toEqual([]);
    expect(tweet.thread).toEqual([{ text: "Two, with a picture.", image_urls: [expect.stringContaining("/media/")] }]);
    await page.close();
  }, 180_000);

  it("stores an upload only from the owner's page: no session or no page token is refused", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const csrf = await page.evaluate(() => (document.querySelector("input[name=csrf]") as HTMLInputElement).value);
    const body = JSON.stringify({ data: (await png("black")).buffer.toString("base64"), content_type: "image/png", filename: "x.png" });
    const upload = (headers: Record<string, string>) =>
      fetch(`${srv.origin}/write/upload`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    // Another site's page has the cookie sent at best, never the page's token.
    const forged = await upload({ cookie, origin: "https://evil.example" });
    expect(forged.status).toBe(401);
    expect((await forged.json()).error.code).toBe("unauthorized");
    expect((await upload({ "x-csrf-token": csrf })).status).toBe(401);
    expect((await upload({ cookie, "x-csrf-token": "1.forged" })).status).toBe(401);
    // The owner's page itself is taken.
    const ok = await upload({ cookie, "x-csrf-token": csrf });
    expect(ok.status).toBe(200);
    expect((await ok.json()).url).toMatch(/\/media\/[0-9a-f-]{36}$/);
    // A body that is not upload_media's is refused in the API's error shape.
    const bad = await fetch(`${srv.origin}/write/upload`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "x-csrf-token": csrf },
      body: JSON.stringify({ data: "not base64!", content_type: "text/html" }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details.map((d: { path: string }) => d.path).sort()).toEqual(["content_type", "data"]);
    // Past upload_media's own cap, refused unread.
    const huge = await fetch(`${srv.origin}/write/upload`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "x-csrf-token": csrf },
      body: "a".repeat(29 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe("invalid_request");
    await page.close();
  }, 120_000);
});

describe("the composer's AI help, with the built-in offline composer", () => {
  it("writes a post from a topic, shortens it, undoes, turns it into a thread, and charges the plan nothing", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    const card = page.getByRole("region", { name: "Write with AI" });
    // Said plainly: no model, a template, free, and how to add a model.
    expect(await card.textContent()).toMatch(/No AI model is configured.*offline starter.*costs nothing from your plan.*OPENAI_API_KEY/);
    const allowance = async () => (await api("get_profile_context", {})).body.allowance;
    const before = await allowance();
    await page.getByLabel("What it is about").fill("Small pull requests get reviewed faster. Big ones wait for days and then get rubber-stamped.");
    await card.getByRole("button", { name: "Write the post" }).click();
    await expect.poll(() => page.locator("#post_body").inputValue()).toContain("Small pull requests get reviewed faster.");
    const written = await page.locator("#post_body").inputValue();

    await page.getByRole("group", { name: "AI help for the post" }).getByRole("button", { name: "Shorten" }).click();
    await expect.poll(async () => (await page.locator("#post_body").inputValue()).length).toBeLessThan(written.length);
    await card.getByRole("button", { name: "Undo the AI change" }).click();
    expect(await page.locator("#post_body").inputValue()).toBe(written);

    await page.getByRole("checkbox", { name: "Sandbox for X" }).check();
    await page.getByRole("button", { name: "Turn into a thread with AI" }).click();
    await expect.poll(() => page.getByLabel("Part 3", { exact: true }).count()).toBe(1);
    expect(await page.getByLabel("Part 1", { exact: true }).inputValue()).not.toBe("");
    // Nothing was saved by the model: the owner saves what they keep.
    expect((await api("search_content", { query: "pull requests" })).body.results).toEqual([]);
    // Three presses of the offline starter, and the plan's allowance as it was.
    expect(await allowance()).toEqual(before);
    await axe(page);
    await screenshots(page, "composer-ai");
    await page.close();
  }, 180_000);
});

describe("the item page's editor", () => {
  it("saves an unscheduled draft's text by itself as the owner pauses, then acts on that version; a scheduled one only by a button", async () => {
    const page = await newPage();
    const { id } = (await api("create_draft", { type: "post", body: "First words." })).body;
    await openSignedIn(page, `${srv.origin}/content/post/${id}`, OWNER.email, OWNER.password);
    await page.locator("#body").fill("Second words, saved by themselves.");
    await expect.poll(() => page.getByText(/^Saved automatically at/).count(), { timeout: 15_000 }).toBe(1);
    expect((await api("fetch_item", { type: "post", id })).body.body).toBe("Second words, saved by themselves.");
    // Typing again saves again; the buttons then act on the newest version, never refused as changed.
    await page.locator("#body").fill("Third words.");
    await expect.poll(async () => (await api("fetch_item", { type: "post", id })).body.body, { timeout: 15_000 }).toBe("Third words.");
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await page.waitForURL(/\?done=scheduled$/);
    // One history entry for the typing, not one a pause.
    expect(await page.locator(".history li", { hasText: "Edited by" }).count()).toBe(1);
    // Scheduled: what goes out changes only by a button.
    expect(await page.getByText(/Saved automatically/).count()).toBe(0);
    await page.locator("#body").fill("Not saved by itself.");
    await new Promise((r) => setTimeout(r, 3000));
    expect((await api("fetch_item", { type: "post", id })).body.body).toBe("Third words.");
    await page.close();
  }, 120_000);
});

describe("the composer's form, forged", () => {
  it("a cross-site post of the composer makes no draft: another Origin, or no CSRF proof; an edit reaches only the owner's drafts", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    const form = await forgedForm(page, `${srv.origin}/write`, 'name="post_body"');
    const csrf = form.csrf;
    // Each post as a fresh page would send it (a page's key stands for one submission).
    const post = (text: string, opts: { origin?: string; csrf?: string; edit?: string }) =>
      form.post({ to_post: "on", post_body: text, intent: "save", key: randomUUID(), ...(opts.edit && { edit: opts.edit }) }, opts);
    const saved = async (text: string) => ((await api("search_content", { query: text })).body.results as unknown[]).length;
    await post("Forgedelsewhere words", { origin: "https://attacker.example", csrf });
    await post("Forgedwithoutproof words", {});
    await post("Forgedproof words", { csrf: `${Date.now()}.AAAA` });
    // The same post with the page's own proof does make one: the forged ones reached the
    // action and were refused there, not lost on the way.
    await post("Genuinecomposer words", { csrf });
    expect(await saved("Genuinecomposer")).toBe(1);
    for (const t of ["Forgedelsewhere", "Forgedwithoutproof", "Forgedproof"]) expect(await saved(t)).toBe(0);

    // An edit reaches the owner's own drafts only: another user's, named in the form with the
    // page's own proof, stays as it was, and nothing is made instead.
    await srv.admin("create-user", "--email", "maker-other@example.com", "--password", "another horse battery", "--plan", "creator");
    const other = JSON.parse((await srv.admin("issue-token", "--email", "maker-other@example.com", "--app", "Other")).stdout).access_token;
    const theirs = (await srv.api("create_draft", { type: "post", body: "Theirs alone." }, other)).body;
    await post("Forgedtheirs words", { csrf, edit: `post:${theirs.id}` });
    expect((await srv.api("fetch_item", { type: "post", id: theirs.id }, other)).body.body).toBe("Theirs alone.");
    expect(await saved("Forgedtheirs")).toBe(0);

    // An edit of the owner's own draft, with the edit page's fields (the page posts it through
    // script, so the composer's form action carries it here): from another site or without the
    // page's proof it changes nothing; with it, it does (the control).
    const mine = (await api("create_draft", { type: "post", body: "Mine as written." })).body;
    const cookie = (await page.context().cookies(srv.origin)).map((c) => `${c.name}=${c.value}`).join("; ");
    const html = await fetch(`${srv.origin}/write/post/${mine.id}`, { headers: { cookie } }).then((r) => r.text());
    const hidden = (k: string) => new RegExp(`<input type="hidden" name="${k}" value="([^"]*)"`).exec(html)?.[1] ?? "";
    const editFields = Object.fromEntries(["edit", "shown", "updated_at", "account_was"].map((k) => [k, hidden(k)]));
    expect(editFields.edit).toBe(`post:${mine.id}`);
    const editTo = (text: string, opts: { origin?: string; csrf?: string }) =>
      form.post({ ...editFields, post_body: text, intent: "save", key: randomUUID() }, opts);
    const body = async () => (await api("fetch_item", { type: "post", id: mine.id })).body.body;
    await editTo("Forged edit elsewhere.", { origin: "https://attacker.example", csrf });
    await editTo("Forged edit without proof.", {});
    expect(await body()).toBe("Mine as written.");
    await editTo("Genuine edit.", { csrf });
    expect(await body()).toBe("Genuine edit.");
    await page.close();
  }, 120_000);

  it("the page's own submission sent twice, at once and again after, publishes one post", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    const form = await forgedForm(page, `${srv.origin}/write`, 'name="post_body"');
    const publish = () => form.post({ to_post: "on", post_body: "Doublepressed words", intent: "publish" }, { csrf: form.csrf });
    await Promise.all([publish(), publish()]);
    await publish();
    const found = (await api("search_content", { query: "Doublepressed" })).body.results as { status: string }[];
    expect(found.map((r) => r.status)).toEqual(["published"]);
    await page.close();
  }, 120_000);
});
