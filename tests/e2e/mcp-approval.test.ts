import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axe, openSignedIn, press, pressWithKeys, screenshots, userInBrowser } from "./browser";
import { TestServer } from "./harness";

// Confirmation over MCP as a person meets it, against the built server: the MCP SDK client
// shows the approval page's URL (URL-mode elicitation), the owner approves in chromium, and
// the waiting tool call completes; a client that answers its own forms publishes nothing
// until the owner trusts that app in Settings > Connections.
const srv = new TestServer();
const EMAIL = "mcp-approver@example.com";
const ownerPassword = "correct horse battery";

type ElicitParams = { mode?: string; url?: string; message: string };
const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const errorOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text).error;

async function connect(elicitation: Record<string, unknown>, onElicit: (p: ElicitParams) => Promise<Record<string, unknown>>) {
  const client = new Client({ name: "e2e-assistant", version: "1.0.0" }, { capabilities: { elicitation } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => (await onElicit(req.params as ElicitParams)) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${app.token}` } } }));
  return client;
}

const app = userInBrowser(srv, { email: EMAIL, password: ownerPassword, allowPublishing: true, app: "Desk Assistant" });

const signedIn = async (url: string): Promise<Page> => openSignedIn(await app.newPage(), url, EMAIL, ownerPassword);

describe("confirming over MCP", () => {
  it("a client with URL elicitation completes publish_now after the owner approves on the page", async () => {
    let page: Page | undefined;
    const client = await connect({ url: {} }, async (p) => {
      expect(p.mode).toBe("url");
      // What a client does: show the link; the person opens it and decides there.
      void (async () => {
        page = await signedIn(p.url!);
        await expect.poll(() => page!.getByRole("heading", { level: 1 }).textContent()).toMatch(/Desk Assistant wants to publish this post to the sandbox now/);
        await press(page.getByRole("button", { name: "Approve" }));
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

  it("a 2026-07-28 client (v2 SDK) completes publish_now through input_required after the owner approves on the page", async () => {
    const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = await import("@modelcontextprotocol/client");
    const client = new ClientV2(
      { name: "e2e-assistant-v2", version: "2.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    let page: Page | undefined;
    const asked: ElicitParams[] = [];
    client.setRequestHandler("elicitation/create", async (req) => {
      const p = req.params as ElicitParams;
      asked.push(p);
      // The person opens the link and decides there; the client retries meanwhile.
      void (async () => {
        page = await signedIn(p.url!);
        await expect.poll(() => page!.getByRole("heading", { level: 1 }).textContent()).toMatch(/Desk Assistant wants to publish this post to the sandbox now/);
        await press(page.getByRole("button", { name: "Approve" }));
      })();
      return { action: "accept" };
    });
    await client.connect(new TransportV2(new URL(`${srv.origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${app.token}` } } }));
    expect(client.getProtocolEra()).toBe("modern");
    const d = structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body: "Approved on the page, over 2026-07-28." } }));
    const res = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } }, { timeout: 90_000 });
    expect(res.isError, JSON.stringify(res)).toBeFalsy();
    expect(structured(res).url).toMatch(new RegExp(`^${srv.origin}/sandbox/pronet/`));
    expect(asked.map((p) => p.mode)).toEqual(["url"]);
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).status).toBe("published");
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
    await pressWithKeys(page, sw);
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("true");
    await axe(page);
    await screenshots(page, "connections-trust");

    const published = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    expect(published.isError, JSON.stringify(published)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toContain("A program's own yes is not enough.");
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).status).toBe("published");

    // Trust withdrawn: the next form is not even sent.
    await pressWithKeys(page, sw);
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("false");
    const d2 = structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body: "Not after the trust is gone." } }));
    expect(errorOf(await client.callTool({ name: "publish_now", arguments: { type: "post", id: d2.id } })).code).toBe("confirmation_required");
    expect(asked).toHaveLength(1);
    await page.close();
    await client.close();
  }, 120_000);
});
