import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page, Request } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { axe, forgedForm, press, screenshots, userInBrowser } from "./browser";
import { TestServer } from "./harness";

// The Import page (issue 55): a spreadsheet of drafts previewed row by row with its problems,
// imported and scheduled into the next free queue slots only when the owner confirms, and
// removed as one. In the built app, on the sandbox's accounts.
const EMAIL = "planner@example.com";
const PASSWORD = "correct horse battery";
const srv = new TestServer();
let owner: Page;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-e2e-"));

// The shared server schedules a second ahead (SCHEDULE_MIN_LEAD_SECONDS=1).
const app = userInBrowser(srv, { email: EMAIL, password: PASSWORD, allowPublishing: true, app: "Planner" });
const api = (op: string, body: unknown) => srv.api(op, body, app.token);

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
/** Twenty rows, LinkedIn and X in turn, with `bad` rows replaced. */
function csv(bad: Record<number, string> = {}) {
  const lines = ["network,account,text,date,time,first_comment"];
  for (let row = 1; row <= 20; row++) {
    const line = row % 2 ? `linkedin,,${quote(`Post number ${row}\nWith a second line, and a comma.`)},,,` : `x,,${quote(`Tweet number ${row}`)},,,`;
    lines.push(bad[row] ?? line);
  }
  return lines.join("\r\n") + "\r\n";
}
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

async function check(p: string) {
  await owner.goto(`${srv.origin}/import`);
  await owner.getByLabel("CSV file").setInputFiles(p);
  await owner.getByRole("button", { name: "Check the file" }).click();
  await expect.poll(() => owner.getByRole("heading", { name: "Preview" }).count()).toBe(1);
}

const scheduled = async () => (await api("list_scheduled", { limit: 50 })).body.items as { title: string; platform: string; scheduled_for: string }[];
const drafts = async () => (await api("search_content", { query: "number" })).body.results as unknown[];

beforeAll(async () => {
  owner = await app.newPage();
  await owner.goto(`${srv.origin}/signin`);
  await owner.getByLabel("E-mail").first().fill(EMAIL);
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign in" }).click();
  await owner.waitForURL(/\/content$/);
  // The queue page gives the owner the sandbox's accounts; each gets two slots a day.
  await owner.goto(`${srv.origin}/queue`);
  const accounts = (await api("get_profile_context", {})).body.accounts as { account_id: string; network: string }[];
  const slots = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].flatMap((weekday) => [
    { weekday, time: "09:00" },
    { weekday, time: "17:00" },
  ]);
  for (const a of accounts) expect((await api("manage_queue", { account_id: a.account_id, slots })).status).toBe(200);
}, 120_000);

describe("the Import page", () => {
  it("shows a file's two bad rows and imports nothing; the fixed file fills the next slots in order; Remove takes them back", async () => {
    const accounts = (await api("get_profile_context", {})).body.accounts as { account_id: string; network: string }[];
    const next: Record<string, string[]> = {};
    for (const a of accounts) next[a.network] = (await api("manage_queue", { account_id: a.account_id })).body.next_slots;

    // Row 4: longer than X takes; row 17: no such network.
    await check(file("bad.csv", csv({ 4: `x,,${"a".repeat(281)},,,`, 17: "myspace,,Somewhere else,,," })));
    await expect.poll(() => owner.getByRole("alert").first().textContent()).toContain("2 of 20 rows have problems (row 4, row 17).");
    for (const row of [4, 17]) expect(await owner.getByRole("list", { name: `Problems of row ${row}` }).count()).toBe(1);
    expect(await owner.getByRole("list", { name: /^Problems of row/ }).count()).toBe(2);
    expect(await owner.getByRole("list", { name: "Problems of row 4" }).textContent()).toContain("text");
    expect(await owner.getByRole("button", { name: /^Import and schedule/ }).count()).toBe(0);
    await axe(owner);
    await screenshots(owner, "import-problems");
    await owner.setViewportSize({ width: 390, height: 844 });
    await axe(owner);
    await owner.setViewportSize({ width: 1280, height: 900 });
    expect(await drafts()).toEqual([]);
    expect(await scheduled()).toEqual([]);

    // Fixed: every row shows the slot it takes.
    await check(file("good.csv", csv()));
    await expect.poll(() => owner.getByRole("status").first().textContent()).toContain("All 20 rows can be imported");
    expect(await owner.getByText(/^Next free slot:/).count()).toBe(20);
    await axe(owner);
    await screenshots(owner, "import-preview");
    await owner.setViewportSize({ width: 390, height: 844 });
    await axe(owner);
    await owner.setViewportSize({ width: 1280, height: 900 });

    // The confirm as another site would send it, or without the page's CSRF token: nothing is imported.
    const confirm = owner.getByRole("button", { name: "Import and schedule 20 drafts" });
    let captured: Request | undefined;
    await owner.route(`${srv.origin}/import`, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      captured = route.request();
      await route.abort();
    });
    await confirm.click();
    await expect.poll(() => captured !== undefined).toBe(true);
    await owner.unroute(`${srv.origin}/import`);
    const cookie = (await owner.context().cookies(srv.origin)).map((c) => `${c.name}=${c.value}`).join("; ");
    const headers = { ...captured!.headers(), cookie };
    const body = captured!.postData()!;
    const csrf = /name="[^"]*csrf"\r\n\r\n([^\r]+)/.exec(body)?.[1];
    expect(csrf).toBeTruthy();
    await fetch(`${srv.origin}/import`, { method: "POST", body, headers: { ...headers, origin: "https://evil.example" }, redirect: "manual" });
    await fetch(`${srv.origin}/import`, { method: "POST", body: body.replace(csrf!, "forged"), headers, redirect: "manual" });
    expect(await drafts()).toEqual([]);

    // The owner's own confirm.
    await owner.goto(`${srv.origin}/import`);
    await check(file("good.csv", csv()));
    await owner.getByRole("button", { name: "Import and schedule 20 drafts" }).click();
    await owner.waitForURL(/done=imported/);
    await expect.poll(() => owner.getByRole("status").first().textContent()).toContain("Imported and scheduled");
    const items = await scheduled();
    expect(items).toHaveLength(20);
    // Each account's rows took its next free slots, in row order.
    for (const [platform, network, word] of [
      ["pronet", "linkedin", "Post"],
      ["micro", "x", "Tweet"],
    ]) {
      const mine = items.filter((i) => i.platform === platform).sort((a, b) => a.scheduled_for.localeCompare(b.scheduled_for));
      const rows = mine.map((i) => Number(/number (\d+)/.exec(i.title)![1]));
      expect(rows).toEqual([...rows].sort((a, b) => a - b));
      expect(mine[0].title.startsWith(word)).toBe(true);
      expect(mine.slice(0, 5).map((i) => new Date(i.scheduled_for).getTime())).toEqual(next[network].map((s) => new Date(s).getTime()));
    }
    // The queue and the calendar show them.
    await owner.goto(`${srv.origin}/queue`);
    await expect.poll(() => owner.getByText("Post number 1", { exact: false }).count()).toBeGreaterThan(0);
    await owner.goto(`${srv.origin}/calendar`);
    await expect.poll(() => owner.getByText("Tweet number 2", { exact: false }).count()).toBeGreaterThan(0);

    // Removing it from another site, or without the CSRF token, changes nothing.
    await owner.goto(`${srv.origin}/import`);
    const forged = await forgedForm(owner, `${srv.origin}/import`, 'name="import"');
    await forged.post({}, { csrf: forged.csrf, origin: "https://evil.example" });
    await forged.post({}, { origin: srv.origin });
    await forged.post({}, { csrf: "forged", origin: srv.origin });
    expect(await scheduled()).toHaveLength(20);

    await axe(owner);
    await screenshots(owner, "import-done");
    await owner.getByRole("button", { name: "Remove these 20 drafts" }).click();
    await press(owner.getByRole("dialog").getByRole("button", { name: "Remove" }));
    await owner.waitForURL(/done=removed/);
    await expect.poll(() => owner.getByRole("status").first().textContent()).toContain("Removed 20 drafts.");
    expect(await scheduled()).toEqual([]);
    expect(await drafts()).toEqual([]);
  }, 300_000);
});
