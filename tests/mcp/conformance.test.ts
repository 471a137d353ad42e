import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer } from "../e2e/harness";

// The official MCP conformance suite against the built app, for 2025-11-25 and 2026-07-28.
// The suite sends no credentials, so a loopback front adds a real token (issued by the app
// itself) to each request and passes everything else through unchanged, Host and Origin
// included: the app's own authentication and DNS-rebinding checks answer.
//
// Scenarios that need the suite's fixture tools, resources and prompts (test_simple_text,
// test://static-text, ...) cannot apply to this server; docs/mcp.md lists them and why.
const run = promisify(execFile);
const srv = new TestServer();
let front: http.Server;
let mcpUrl = "";
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-conformance-"));

/** Scenarios that apply to a server without the suite's fixtures, per requirement set. */
const APPLICABLE: Record<string, string[]> = {
  "2025-11-25": [
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "prompts-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    "server-session-lifecycle",
    "server-sse-polling",
  ],
  "2026-07-28": [
    "server-stateless",
    "tools-list",
    "resources-list",
    "prompts-list",
    "caching",
    "http-header-validation",
    "dns-rebinding-protection",
    "server-sse-multiple-streams",
    "sep-2164-resource-not-found",
    "input-required-result-missing-input-response",
    "input-required-result-unsupported-methods",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
  ],
};

/**
 * Checks inside applicable scenarios that call a fixture tool by name; the suite itself marks
 * them "untestable" when the server does not list it.
 */
const FIXTURE_CHECKS = new Set([
  "sep-2575-server-rejects-undeclared-capability", // test_missing_capability
  "sep-2575-missing-capability-http-400", // test_missing_capability
  "sep-2575-http-server-no-independent-requests-on-stream", // test_streaming_elicitation
  "sep-2575-server-no-log-without-loglevel", // test_logging_tool
]);

type Check = { id: string; status: string; errorMessage?: string; details?: { untestable?: boolean } };

/** Every scenario's checks from the suite's output directory (one folder per scenario). */
function results(dir: string): Map<string, Check[]> {
  const out = new Map<string, Check[]>();
  for (const entry of fs.readdirSync(dir)) {
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const file = path.join(dir, entry, "checks.json");
    if (fs.existsSync(file)) out.set(scenario, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  return out;
}

beforeAll(async () => {
  await srv.setup();
  srv.env.RATE_LIMIT_SCALE = "100"; // the suite sends hundreds of requests a minute
  await srv.firstStart();
  const token = JSON.parse((await srv.admin("issue-token", "--email", "owner@example.com", "--app", "Conformance")).stdout).access_token;
  const target = new URL(srv.origin);
  front = http.createServer((req, res) => {
    const headers = { ...req.headers };
    headers.authorization ??= `Bearer ${token}`;
    const upstream = http.request({ host: "127.0.0.1", port: target.port, path: req.url, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  mcpUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`;
}, 400_000);

afterAll(async () => {
  front?.close();
  await srv.teardown();
});

describe("MCP conformance suite 0.2.0-alpha.12 against the built app", () => {
  for (const version of Object.keys(APPLICABLE)) {
    it(`passes every applicable server scenario of ${version}`, async () => {
      const dir = path.join(outDir, version);
      const args = ["-y", "-p", "node@22", "-p", "@modelcontextprotocol/conformance@0.2.0-alpha.12", "conformance", "server"];
      const out = await run("npx", [...args, "--url", mcpUrl, "--requirements", version, "-o", dir], { timeout: 900_000, maxBuffer: 50e6 }).catch((e) => e);
      const checks = results(dir);
      const failures: string[] = [];
      for (const scenario of APPLICABLE[version]) {
        const list = checks.get(scenario);
        if (!list) {
          failures.push(`${scenario}: not run`);
          continue;
        }
        for (const c of list) {
          if (c.status !== "FAILURE") continue;
          if (c.details?.untestable && FIXTURE_CHECKS.has(c.id)) continue;
          failures.push(`${scenario} ${c.id}: ${c.errorMessage ?? ""}`);
        }
      }
      const summary = `${out.stdout ?? ""}`.split("=== SUMMARY ===").pop() ?? "";
      console.log(`conformance ${version}: ${APPLICABLE[version].length} applicable scenarios pass\n${summary}`);
      expect(failures, summary).toEqual([]);
    }, 900_000);
  }
});
