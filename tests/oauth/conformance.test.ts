import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appInBrowser, press } from "../e2e/browser";
import { freePort, TestServer } from "../e2e/harness";

// The official MCP conformance suite's authorization-server scenarios against the built app:
// metadata, then the authorization code grant, for which the suite prints an authorization URL
// and waits for its callback. The owner opens it in chromium, signs in and allows the app on
// the real consent page. Both scenarios run in one invocation (the code grant reads what the
// metadata scenario discovered).
const srv = new TestServer();
let ownerPassword = "";

const app = appInBrowser(srv, async () => {
  ({ ownerPassword } = await srv.firstStart());
});

describe("MCP conformance suite: authorization server", () => {
  it("passes the metadata and authorization-code-grant scenarios with consent in the browser", async () => {
    const port = await freePort();
    const reg = await fetch(`${srv.origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Conformance Suite", redirect_uris: [`http://127.0.0.1:${port}/callback`], token_endpoint_auth_method: "none" }),
    });
    const { client_id } = await reg.json();
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "as-conformance-"));
    const args = ["-y", "-p", "node@22", "-p", "@modelcontextprotocol/conformance@0.2.0-alpha.12", "conformance", "authorization"];
    const cli = spawn("npx", [...args, "--url", srv.origin, "--client-id", client_id, "--resource", `${srv.origin}/mcp`, "-p", String(port), "-o", outDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    cli.stdout.on("data", (d) => (out += d));
    cli.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((r) => cli.on("close", r));
    // The suite prints the authorization URL it waits on.
    let url: string | undefined;
    for (let i = 0; i < 1200 && !url; i++) {
      url = /(http:\/\/localhost:\d+\/oauth\/authorize\?\S+)/.exec(out)?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 250));
    }
    expect(url, out).toBeTruthy();
    const page = await app.newPage();
    await page.goto(url!);
    await page.getByLabel("E-mail").fill("owner@example.com");
    await page.getByLabel("Password").fill(ownerPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => u.pathname === "/oauth/authorize");
    await press(page.getByRole("button", { name: "Allow" }));
    const code = await exited;
    await page.close();
    const checks = fs
      .readdirSync(outDir)
      .flatMap((d) => (fs.existsSync(path.join(outDir, d, "checks.json")) ? JSON.parse(fs.readFileSync(path.join(outDir, d, "checks.json"), "utf8")) : []));
    const failed = checks.filter((c: { status: string }) => c.status === "FAILURE");
    expect(failed, out).toEqual([]);
    expect(checks.length, out).toBeGreaterThan(1);
    expect(code, out).toBe(0);
  }, 600_000);
});
