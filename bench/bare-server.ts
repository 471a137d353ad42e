import http from "node:http";
import { openDatabase } from "@/lib/adapters/db";
import type { Ctx } from "@/lib/domain/context";
import { fetchItem, type ItemType } from "@/lib/domain/drafts/items";

// The R1/R2 baseline: node:http, no framework, no token check, no rate limiter, no input
// validation; the same query and the same JSON bytes as fetch_item (it calls the same
// domain function, so the SQL drizzle sends is identical).
const port = Number(process.env.BARE_PORT);
const userId = process.env.BENCH_USER_ID!;
const d = await openDatabase({ url: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? null });
const ctx = { db: d.db, caller: { userId }, now: () => new Date(), requestId: "bare" } as unknown as Ctx;

const server = http.createServer((req, res) => {
  if (req.url === "/health") return void res.end("ok");
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    try {
      const input = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; type: ItemType };
      const body = JSON.stringify(await fetchItem(ctx, input));
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" }).end(body);
    } catch (e) {
      res.writeHead(500, { "Content-Type": "text/plain" }).end(e instanceof Error ? e.message : String(e));
    }
  });
});
server.listen(port, "127.0.0.1");

// Close the data dir cleanly: the next server may open the same PGlite directory.
const shutdown = () => {
  setTimeout(() => process.exit(1), 5000).unref();
  server.close(() => void d.close().finally(() => process.exit(0)));
  server.closeAllConnections();
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
