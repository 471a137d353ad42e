import { execFile, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, useDatabase as installDatabase, type Database } from "@/lib/adapters/db";
import { databaseIdentity } from "@/lib/adapters/db/identity";
import { findUserByEmail } from "@/lib/domain/owner/users";
import { openChannel, socketPath } from "@/lib/transports/cli/channel";
import { answerChannel } from "@/lib/transports/cli/commands";
import { verifyPassword } from "@/lib/domain/owner/sign-in";
import { hashToken } from "@/lib/domain/apps/tokens";
import { tokens } from "@/drizzle/schema";
import { call, expectError } from "../helpers/api";
import { ensureBuild } from "../helpers/build";
import { migratedTemplate } from "../helpers/pglite-template";
import { tempDatabase, type TempDatabase } from "../helpers/temp-database";

// The real command, as operators run it: `npm run admin -- ...`, that is `node server/admin.mjs`
// running the build's bundle (built first if a source is newer), in a child process. Each start
// costs a second or more, so every command runs once per database and the checks are batched.
const ROOT = path.resolve(import.meta.dirname, "../..");
const ADMIN = path.join(ROOT, "server", "admin.mjs"); // what `npm run admin` runs, without npm's start-up
beforeAll(() => ensureBuild(), 600_000);
type Run = { code: number; stdout: string; stderr: string; json: () => any };

function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  return adminWithInput(env, "", ...args);
}

/** The command with `input` on its standard input (a pipe, not a terminal). */
function adminWithInput(env: NodeJS.ProcessEnv, input: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [ADMIN, ...args], { cwd: ROOT, env, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
    child.stdin!.end(input);
  });
}

/**
 * The command in a terminal (util-linux `script` gives it one), answering each prompt with
 * `answers` once it shows: what the terminal displayed, and the exit code.
 */
function adminInTerminal(env: NodeJS.ProcessEnv, answers: [RegExp, string][], ...args: string[]): Promise<{ code: number | null; shown: string }> {
  const command = [process.execPath, ADMIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let shown = "";
  const pending = [...answers];
  const onOutput = (d: Buffer) => {
    shown += d;
    while (pending.length && pending[0][0].test(shown)) child.stdin.write(pending.shift()![1]);
  };
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  const timer = setTimeout(() => child.kill(), 90_000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, shown });
    }),
  );
}

/** Whether `password` signs `email` in. */
async function signsIn(email: string, password: string, open: () => Promise<{ db: Parameters<typeof verifyPassword>[0]; close: () => Promise<void> }>) {
  const d = await open();
  try {
    return (await verifyPassword(d.db, email, password)) !== null;
  } finally {
    await d.close();
    installDatabase(undefined);
  }
}

function ok(r: Run) {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split("\n")).toHaveLength(1); // one JSON object
  return r.json();
}

// The embedded project runs it on PGlite, the postgres project on PostgreSQL (vitest.config.ts).
const MODES = [
  process.env.DATABASE_URL ? { name: "PostgreSQL", url: process.env.DATABASE_URL } : { name: "embedded PGlite", url: undefined as string | undefined },
];

describe.each(MODES)("npm run admin against $name", ({ url }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-cli-"));
  let dbUrl: string | undefined;
  const env = () => {
    const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    delete e.REDIS_URL;
    if (dbUrl) e.DATABASE_URL = dbUrl;
    else delete e.DATABASE_URL;
    return e;
  };
  const email = `cli-${randomBytes(4).toString("hex")}@example.test`;
  let temp: TempDatabase | undefined;

  beforeAll(async () => {
    if (!url) return;
    temp = await tempDatabase(url, "contentio_cli");
    dbUrl = temp.url;
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await temp?.drop();
  });

  /** Opens the database the CLI wrote to (PGlite only once the CLI process has ended). */
  async function openSame() {
    const d = await openDatabase(dbUrl ? { url: dbUrl } : { dataDir });
    installDatabase(d);
    return d;
  }

  it("creates and changes accounts and issues a token that works against the API", { timeout: 180_000 }, async () => {
    const created = ok(
      await adminWithInput(env(), "pw-123456\n", "create-user", "--email", email.toUpperCase(), "--password-stdin", "--plan", "none", "--incomplete"),
    );
    expect(created).toMatchObject({ id: expect.any(String), email, plan: "none" });

    const dup = await adminWithInput(env(), "other\n", "create-user", "--email", email, "--password-stdin");
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toContain("already exists");
    expect(dup.stdout).toBe("");

    // One at a time: the embedded database admits one process.
    expect(ok(await admin(env(), "set-plan", "--email", email, "--plan", "plus"))).toMatchObject({ id: created.id, plan: "plus" });
    expect(ok(await admin(env(), "complete-account", "--email", email))).toMatchObject({ account_complete: true });
    expect(ok(await admin(env(), "allow-publishing", "--email", email))).toMatchObject({ publishing_allowed: true });
    expect(ok(await admin(env(), "allow-publishing", "--email", email, "--off"))).toMatchObject({ publishing_allowed: false });

    const long = ok(await admin(env(), "issue-token", "--email", email));
    expect(Object.keys(long).sort()).toEqual(["access_token", "app_id", "expires_in", "token_type"]);
    expect(long).toMatchObject({ token_type: "Bearer", expires_in: 30 * 24 * 3600, app_id: expect.any(String) });
    const short = ok(await admin(env(), "issue-token", "--email", email, "--app", "Nightly script", "--expires-in", "120"));
    expect(short).toMatchObject({ token_type: "Bearer", expires_in: 120 });
    expect(short.access_token).not.toBe(long.access_token);

    const d = await openSame();
    try {
      for (const t of [long, short]) {
        const res = await call("search_content", {}, { token: t.access_token });
        expect(res.status, JSON.stringify(res.body)).toBe(200); // plan set and account completed
        const [row] = await d.db
          .select()
          .from(tokens)
          .where(eq(tokens.tokenHash, hashToken(t.access_token)));
        expect(Math.abs(row.expiresAt.getTime() - Date.now() - t.expires_in * 1000)).toBeLessThan(5 * 60_000);
      }
      // --off took effect: deleting is refused until the owner allows it again.
      const del = await call("delete_draft", { type: "post", id: "00000000-0000-4000-8000-000000000000" }, { token: long.access_token });
      expectError(del, 403, "publishing_not_allowed");
    } finally {
      await d.close();
      installDatabase(undefined);
    }
  });

  it("takes a new user's password from standard input or a terminal prompt, never needing it on the command line", { timeout: 240_000 }, async () => {
    const piped = `piped-${email}`;
    // One final line break is the end of the line, not part of the password.
    ok(await adminWithInput(env(), "from stdin pw\n", "create-user", "--email", piped, "--password-stdin"));
    expect(await signsIn(piped, "from stdin pw", openSame)).toBe(true);

    // Neither a flag nor a terminal: refused with the usage, and no account.
    const none = await admin(env(), "create-user", "--email", `none-${email}`);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--password-stdin[\s\S]*Usage:/);
    const empty = await adminWithInput(env(), "\n", "create-user", "--email", `none-${email}`, "--password-stdin");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("The password is empty.");
    const both = await adminWithInput(env(), "x\n", "create-user", "--email", `none-${email}`, "--password", "x", "--password-stdin");
    expect(both.code).toBe(2);
    expect(await signsIn(`none-${email}`, "x", openSame)).toBe(false);

    // In a terminal it asks twice without showing what is typed.
    const typed = `typed-${email}`;
    const asked = await adminInTerminal(
      env(),
      [
        [/Password: $/, "hidden words 1\r"],
        [/Repeat it: $/, "hidden words 1\r"],
      ],
      "create-user",
      "--email",
      typed,
    );
    expect(asked.code, asked.shown).toBe(0);
    expect(asked.shown).toContain(`"email":"${typed}"`);
    expect(asked.shown).not.toContain("hidden words");
    expect(await signsIn(typed, "hidden words 1", openSame)).toBe(true);
    const differ = await adminInTerminal(
      env(),
      [
        [/Password: $/, "one\r"],
        [/Repeat it: $/, "two\r"],
      ],
      "create-user",
      "--email",
      `differ-${email}`,
    );
    expect(differ.code).toBe(2);
    expect(differ.shown).toContain("The two passwords differ.");

    // The old flag still works, with a warning that it shows the password.
    const flagged = await admin(env(), "create-user", "--email", `flag-${email}`, "--password", "flag pw");
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.stderr).toMatch(/^Warning: --password shows the password/);
    expect(await signsIn(`flag-${email}`, "flag pw", openSame)).toBe(true);
  });

  it.runIf(!url)("refuses an unknown command or plan with the usage on stderr", { timeout: 120_000 }, async () => {
    // Side by side: only the second one opens the database. A usage error must not create one.
    const nowhere = `${dataDir}-unused`;
    const [unknown, plan] = await Promise.all([
      admin({ ...env(), DATA_DIR: nowhere }, "make-coffee", "--email", email),
      admin(env(), "set-plan", "--email", email, "--plan", "gold"),
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/Unknown command "make-coffee"[\s\S]*Usage:/);
    expect(fs.existsSync(nowhere)).toBe(false);
    expect(plan.code).not.toBe(0);
    expect(plan.stderr).toMatch(/--plan must be one of[\s\S]*Usage:/);
    expect(plan.stdout).toBe("");
  });

  it.runIf(!url)("refuses while another live process holds the embedded database", { timeout: 120_000 }, async () => {
    // Written the way lib/adapters/db/lock.ts writes it; this test process is alive and is not the CLI.
    const lock = path.join(dataDir, "contentio.pid");
    fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
    try {
      const r = await admin(env(), "set-plan", "--email", email, "--plan", "creator");
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`open in process ${process.pid}`);
      expect(fs.readFileSync(lock, "utf8")).toBe(String(process.pid)); // the holder's lock is left alone
    } finally {
      fs.rmSync(lock, { force: true });
    }
    // Nothing was changed: the plan is still plus.
    expect(ok(await admin(env(), "complete-account", "--email", email))).toMatchObject({ plan: "plus" });
  });
});

// A server on one database, a command meant for another: the command must never act on the
// server's. The postgres project replays it as found (the server on PostgreSQL A, the command
// given DATABASE_URL=B); the embedded one has the server on a PostgreSQL (stood in for by a
// database in memory) and the command on the embedded database of the same DATA_DIR.
describe.each(MODES)("npm run admin beside a server on another database ($name)", ({ url }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-cli-other-"));
  const email = `other-${randomBytes(4).toString("hex")}@example.test`;
  const temps: TempDatabase[] = [];
  const servers: { close: () => unknown }[] = [];
  let serverDb: Database;
  let serverIdentity: ReturnType<typeof databaseIdentity>;
  let commandUrl: string | undefined;

  beforeAll(async () => {
    if (url) {
      const [a, b] = await Promise.all([tempDatabase(url, "contentio_cli_a"), tempDatabase(url, "contentio_cli_b")]);
      temps.push(a, b);
      serverDb = await openDatabase({ url: a.url });
      serverIdentity = databaseIdentity({ DATABASE_URL: a.url, DATA_DIR: dataDir });
      commandUrl = b.url;
    } else {
      serverDb = await openDatabase({ dataDir: null, from: await migratedTemplate() });
      serverIdentity = databaseIdentity({ DATABASE_URL: "postgres://contentio@db.invalid:5432/contentio", DATA_DIR: dataDir });
    }
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    await serverDb?.close();
    installDatabase(undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await Promise.all(temps.map((t) => t.drop()));
  });

  const env = (databaseUrl = commandUrl): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    delete e.REDIS_URL;
    if (databaseUrl) e.DATABASE_URL = databaseUrl;
    else delete e.DATABASE_URL;
    return e;
  };

  /** A server's channel on DATA_DIR, as startup() opens it, counting the commands it runs. */
  async function serve(identity = serverIdentity) {
    const served = { count: 0 };
    const server = await openChannel(dataDir, identity.id, (req) => (served.count++, answerChannel(req, async () => serverDb.db)));
    if (server) servers.push(server);
    return { server, served };
  }

  it("runs on the database it was given, never on the server's, and says so", { timeout: 180_000 }, async () => {
    const { server, served } = await serve();
    expect(server).not.toBeNull();
    const r = await adminWithInput(env(), "pw-123456\n", "create-user", "--email", email, "--password-stdin");
    expect(r.code, r.stderr).toBe(0);
    expect(served.count).toBe(0);
    expect(r.stderr).toContain("serves another database");
    expect(await findUserByEmail(serverDb.db, email)).toBeUndefined();
    const given = await openDatabase(commandUrl ? { url: commandUrl } : { dataDir });
    try {
      expect(await findUserByEmail(given.db, email)).toMatchObject({ email });
    } finally {
      await given.close();
      installDatabase(undefined);
    }
    server!.close();
  });

  it("a second server leaves a live server's channel alone; a dead one's is taken over", { timeout: 180_000 }, async () => {
    // The command's own database this time, so the server answers it.
    const same = databaseIdentity({ DATABASE_URL: commandUrl, DATA_DIR: dataDir });
    const first = await serve(same);
    const second = await serve(same);
    expect(first.server).not.toBeNull();
    expect(second.server).toBeNull();
    const r = await admin(env(), "set-plan", "--email", `nobody-${email}`, "--plan", "plus");
    expect(r.stderr).toContain("No user");
    expect([first.served.count, second.served.count]).toEqual([1, 0]);
    first.server!.close();

    // A socket left behind by a server that died: nobody answers on it.
    const file = socketPath(dataDir);
    const died = spawnSync(process.execPath, [
      "-e",
      `require("net").createServer().listen(${JSON.stringify(file)}, () => process.kill(process.pid, "SIGKILL"))`,
    ]);
    expect(died.signal).toBe("SIGKILL");
    expect(fs.existsSync(file)).toBe(true);
    const third = await serve(same);
    expect(third.server).not.toBeNull();
    const again = await admin(env(), "set-plan", "--email", `nobody-${email}`, "--plan", "plus");
    expect(again.stderr).toContain("No user");
    expect(third.served.count).toBe(1);
  });
});
