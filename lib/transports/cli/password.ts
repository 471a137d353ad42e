// A password given on the command line is visible to every user of the machine (`ps`) and kept
// in shell history, so the admin command reads it from standard input or asks for it.

/** A password that could not be read: a usage error of the command. */
export class PasswordInputError extends Error {}

const MAX_BYTES = 4096;

type Input = { password?: string; "password-stdin"?: boolean };

/** `ask`: the question in a terminal, and whether it is asked twice (a new password; not a network's app password). */
export async function readPassword(
  v: Input,
  stdin: NodeJS.ReadStream = process.stdin,
  stderr: NodeJS.WriteStream = process.stderr,
  ask_: { question: string; repeat: boolean } = { question: "Password: ", repeat: true },
): Promise<string> {
  if (v.password !== undefined && v["password-stdin"]) throw new PasswordInputError("Give either --password or --password-stdin, not both.");
  let password: string;
  if (v.password !== undefined) {
    stderr.write("Warning: --password shows the password to other users (ps) and keeps it in shell history; prefer --password-stdin.\n");
    password = v.password;
  } else if (v["password-stdin"]) {
    password = await readAll(stdin);
  } else if (stdin.isTTY) {
    password = await ask(ask_.question, stdin, stderr);
    if (ask_.repeat && (await ask("Repeat it: ", stdin, stderr)) !== password) throw new PasswordInputError("The two passwords differ.");
  } else {
    throw new PasswordInputError("Give the password on standard input with --password-stdin, or run the command in a terminal to be asked for it.");
  }
  if (password === "") throw new PasswordInputError("The password is empty.");
  return password;
}

/** All of standard input, less one final line break (as `echo` and here-strings add one). */
async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += b.length;
    if (size > MAX_BYTES) throw new PasswordInputError("The password on standard input is too long.");
    chunks.push(b);
  }
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

// What was typed after a line's end (two lines pasted at once) belongs to the next question.
let typedAhead = "";

/** One line typed at the terminal without echoing it. */
function ask(question: string, stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<string> {
  // Echo off before the question shows, so nothing typed in answer is ever displayed.
  stdin.setRawMode(true);
  stderr.write(question);
  stdin.resume();
  let typed = "";
  return new Promise<string>((resolve, reject) => {
    const done = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const take = (text: string): boolean => {
      const chars = Array.from(text);
      for (let i = 0; i < chars.length; i++) {
        const ch = chars[i];
        if (ch === "\r" || ch === "\n") {
          typedAhead = chars
            .slice(i + 1)
            .join("")
            .replace(/^\n/, "");
          done();
          return true;
        }
        // Ctrl-C, or Ctrl-D on an empty line: the operator gives up.
        if (ch === "\u0003" || (ch === "\u0004" && typed === "")) {
          done(new PasswordInputError("No password given."));
          return true;
        }
        if (ch === "\u007f" || ch === "\b") typed = Array.from(typed).slice(0, -1).join("");
        else if (ch >= " ") typed += ch;
        if (typed.length > MAX_BYTES) {
          done(new PasswordInputError("The password is too long."));
          return true;
        }
      }
      return false;
    };
    const onData = (chunk: Buffer) => void take(chunk.toString("utf8"));
    stdin.on("data", onData);
    const ahead = typedAhead;
    typedAhead = "";
    take(ahead);
  });
}
