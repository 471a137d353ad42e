import path from "node:path";
import { config } from "@/lib/core/config";
import { databaseIdentity } from "@/lib/adapters/db/identity";
import { askServer } from "./channel";
import { readPassword } from "./password";
import { exitCodeOf, parseCommand, USAGE } from "./usage";

// `npm run admin -- <command>` (docs/command-line.md). One JSON object on stdout; errors on
// stderr with a non-zero exit. A running server does the work (channel.ts); without one the
// command opens the database itself, loading the domain only then.

async function main() {
  const argv = process.argv.slice(2);
  let code = 0;
  let close: (() => Promise<void>) | undefined;
  try {
    const { command, v } = parseCommand(argv);
    // Read where the person typing is, before the work goes to a running server.
    const password =
      command === "create-user"
        ? await readPassword(v)
        : command === "connect-bluesky"
          ? await readPassword(v, undefined, undefined, { question: "Bluesky app password: ", repeat: false })
          : undefined;
    const c = config();
    const dataDir = path.resolve(c.DATA_DIR);
    const meant = databaseIdentity(c);
    let answer = await askServer(dataDir, { argv, password, database: meant.id });
    if (answer && "otherDatabase" in answer) {
      // The server on this DATA_DIR holds another database: the command runs on its own (on
      // the embedded database, whose lock refuses it if another process has it open).
      process.stderr.write(`The server answering in ${dataDir} serves another database: running the command on ${meant.label} itself.
`);
      answer = null;
    }
    let out: unknown;
    if (answer && "error" in answer) {
      code = answer.exit;
      process.stderr.write(`${answer.error}\n${code === 2 ? `\n${USAGE}\n` : ""}`);
    } else if (answer && "out" in answer) {
      out = answer.out;
    } else {
      const [{ database }, { runCommand }] = await Promise.all([import("@/lib/adapters/db"), import("./commands")]);
      // Opened only by a command that needs it: a usage error must not create ./.data.
      let opened: ReturnType<typeof database> | undefined;
      close = async () => (await opened?.catch(() => undefined))?.close();
      out = await runCommand(argv, async () => (await (opened = database())).db, password);
    }
    if (code === 0) process.stdout.write(JSON.stringify(out) + "\n");
  } catch (e) {
    code = exitCodeOf(e);
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${code === 2 ? `\n${USAGE}\n` : ""}`);
  }
  await close?.().catch(() => {});
  process.exit(code);
}

void main();
