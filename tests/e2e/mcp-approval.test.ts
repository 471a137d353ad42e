import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe, launchBrowser, newPage, screenshots } from "./browser";
import { TestServer } from "./harness";

// Confirmation over MCP as a person meets it, against the built server: the MCP SDK client
// shows the approval page's URL (URL-mode elicitation), the owner approves in chromium, and
// the waiting tool call completes; a client that answers its own forms publishes nothing
// until the owner trusts that app in Settings > Connections.
const srv = new TestServer();
let browser: Browser;
let ownerPassword = "";
let token = "";

type ElicitParams = { mode?: string; url?: string; message: string };
const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const errorOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text).error;

async function connect(elicitation: Record<string, unknown>, onElicit: (p: ElicitParams) => Promise<Record<string, unknown>>) {
  const client = new Client({ name: "e2e-assistant", version: "1.0.0" }, { capabilities: { elicitation } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => (await onElicit(req.params as ElicitParams)) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

async function signedIn(url: string): Promise<Page> {
  const page = await newPage(browser);
  await page.goto(url);
  await page.getByLabel("E-mail").fill("owner@example.com");
  await page.getByLabel("Password").fill(ownerPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(url);
  return page;
}

beforeAll(async () => {
  await srv.setup();
  ({ ownerPassword } = await srv.firstStart());
  await srv.admin("allow-publishing", "--email", "owner@example.com");
  token = JSON.parse((await srv.admin("issue-token", "--email", "owner@example.com", "--app", "Desk Assistant")).stdout).access_token;
  await srv.start();
  browser = await launchBrowser();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await srv.teardown();
});

describe("confirming over MCP", () => {
  it("a client with URL elicitation completes publish_now after the owner approves on the page", async () => {
    let page: Page | undefined;
    const client = await connect({ url: {} }, async (p) => {
      expect(p.mode).toBe("url");
      // What a client does: show the link; the person opens it and decides there.
      void (async () => {
        page = await signedIn(p.url!);
        await expect.poll(() => page!.getByRole("heading", { level: 1 }).textContent()).toMatch(/Desk Assistant wants to publish this post to LinkedIn now/);
        await page.getByRole("button", { name: "Approve" }).click();
      })();
      return { action: "accept" };
    });
    const d = structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body: "Approved by a person, on the page." } }));
    const res = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } }, undefined, { timeout: 90_000 });
    expect(res.isError, JSON.stringify(res)).toBeFalsy();
    expect(structured(res).url).toMatch(new RegExp(`^${srv.origin}/sandbox/pronet/`));
    const item = structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } }));
    expect(item.status).toBe("published");
    await page?.close();
    await client.close();
  }, 120_000);

  it("a client that answers its own forms publishes nothing until the owner trusts it, then once per form", async () => {
    const asked: ElicitParams[] = [];
    const client = await connect({}, async (p) => {
      asked.push(p);
      return { action: "accept", content: { confirm: true } };
    });
    const d = structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body: "A program's own yes is not enough." } }));
    const refused = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    expect(errorOf(refused).code).toBe("confirmation_required");
    expect(asked).toHaveLength(0);
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).status).toBe("draft");

    // The owner chooses to trust this app, with the keyboard alone.
    const page = await signedIn(`${srv.origin}/settings/connections`);
    const sw = page.getByRole("switch", { name: "Let Desk Assistant confirm actions in its own window" });
    expect(await sw.getAttribute("aria-checked")).toBe("false");
    await expect.poll(() => page.getByText(/a program, not you, could give it/).count()).toBe(1);
    await sw.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("true");
    await axe(page);
    await screenshots(page, "connections-trust");

    const published = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    expect(published.isError, JSON.stringify(published)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toContain("A program's own yes is not enough.");
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).status).toBe("published");

    // Trust withdrawn: the next form is not even sent.
    await sw.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("false");
    const d2 = structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body: "Not after the trust is gone." } }));
    expect(errorOf(await client.callTool({ name: "publish_now", arguments: { type: "post", id: d2.id } })).code).toBe("confirmation_required");
    expect(asked).toHaveLength(1);
    await page.close();
    await client.close();
  }, 120_000);
});
