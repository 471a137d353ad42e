import path from "node:path";
import { config } from "@/lib/core/config";
import { askServer } from "./channel";
import { readPassword } from "./password";
import { exitCodeOf, parseCommand, USAGE } from "./usage";

// `npm run admin -- <command>` (contract section 9). One JSON object on stdout; errors on
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
    const dataDir = path.resolve(config().DATA_DIR);
    const answer = await askServer(dataDir, { argv, password });
    let out: unknown;
    if (answer && "error" in answer) {
      code = answer.exit;
      process.stderr.write(`${answer.error}\n${code === 2 ? `\n${USAGE}\n` : ""}`);
    } else if (answer) {
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
