import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { serveMedia } from "@/lib/transports/http/media";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { inProcessFetch, mcpClient } from "../helpers/mcp";
import { pdf, png } from "../helpers/media";

withDatabase();

const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;

/** One raw JSON-RPC POST (after an initialize), to look at the HTTP status itself. */
async function rawCall(token: string, body: unknown) {
  return inProcessFetch(config().mcpUrl, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });
}

describe("upload_media over MCP", () => {
  it("an assistant uploads an image and saves a thread with it; fetch_item shows the parts", async () => {
    const u = await makeUser();
    const client = await mcpClient(u.token);
    const img = structured(await client.callTool({ name: "upload_media", arguments: { data: (await png()).toString("base64"), content_type: "image/png" } }));
    const created = structured(
      await client.callTool({
        name: "create_draft",
        arguments: {
          type: "tweet",
          body: "How we cut CI time in half 🧵",
          image_urls: [img.url],
          thread: ["Step one: cache.", { text: "Step two: split.", image_urls: [img.url] }],
        },
      }),
    );
    expect(created.type).toBe("tweet");
    const item = structured(await client.callTool({ name: "fetch_item", arguments: { type: "tweet", id: created.id } }));
    expect(item).toMatchObject({
      image_urls: [img.url],
      thread: [
        { text: "Step one: cache.", image_urls: [] },
        { text: "Step two: split.", image_urls: [img.url] },
      ],
    });
    // A part over 280 is refused naming it, as over REST.
    const bad = await client.callTool({ name: "create_draft", arguments: { type: "tweet", body: "x", thread: ["ok", "y".repeat(281)] } });
    expect(bad.isError).toBe(true);
    const error = JSON.parse((bad as { content: { text: string }[] }).content[0].text).error;
    expect(error.details.map((d: { path: string }) => d.path)).toEqual(["thread.1"]);
    // A generated thread, too.
    const gen = structured(await client.callTool({ name: "generate_tweet", arguments: { topic: "Faster CI pipelines", as_thread: true, parts: 3 } }));
    expect(gen.thread).toHaveLength(2);
  });

  it("uploads through the SDK client, and the file is served to its owner", async () => {
    const u = await makeUser();
    const client = await mcpClient(u.token);
    const res = structured(
      await client.callTool({
        name: "upload_media",
        arguments: { data: (await png(30, 20)).toString("base64"), content_type: "image/png", alt_text: "A chart" },
      }),
    );
    expect(res).toMatchObject({ content_type: "image/png", width: 30, height: 20, pages: null, url: `${config().origin}/media/${res.media_id}` });
    // A PDF far larger than the usual 256 KiB body goes through as well.
    const big = Buffer.concat([await pdf(2), Buffer.alloc(6 * 1024 * 1024)]);
    const doc = structured(await client.callTool({ name: "upload_media", arguments: { data: big.toString("base64"), content_type: "application/pdf" } }));
    expect(doc).toMatchObject({ pages: 2, width: null, bytes: big.length });
    const viaRest = await call("create_draft", { type: "post", body: "With a document", document_url: doc.url }, { token: u.token });
    expect(viaRest.status, JSON.stringify(viaRest.body)).toBe(200);
    const served = await serveMedia(new Request(doc.url, { headers: { authorization: `Bearer ${u.token}` } }), doc.media_id, async () => null);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(big)).toBe(true);
  });

  it("keeps the 256 KiB cap for every other message", async () => {
    const u = await makeUser();
    const big = "x".repeat(300 * 1024);
    const other = await rawCall(u.token, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create_draft", arguments: { type: "post", body: big } },
    });
    expect(other.status).toBe(413);
    const batch = await rawCall(u.token, [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "upload_media", arguments: { data: "AAAA", content_type: "image/png" } } },
      { jsonrpc: "2.0", id: 2, method: "ping", params: { pad: big } },
    ]);
    expect(batch.status).toBe(413);
  });
});
