import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { privateDataDir } from "@/lib/core/private-dir";

// The running server holds the embedded database (one process only), so the command line
// hands its command to the server instead, over a Unix socket in DATA_DIR: a folder only the
// service's user may enter, which is who may read the database files beside it anyway. With
// PostgreSQL the server answers the same way, which spares the command opening its own
// connection and applying migrations.

/** One request: the command line's arguments, and create-user's password read where it was typed. */
export type ChannelRequest = { argv: string[]; password?: string };
/** One answer: the command's JSON, or its error and exit code. */
export type ChannelAnswer = { out: unknown } | { error: string; exit: number };

const MAX_REQUEST_BYTES = 64 * 1024;
/** Unix socket paths are short (108 bytes on Linux): past that there is no channel. */
const MAX_SOCKET_PATH = 100;

export const socketPath = (dataDir: string) => path.join(dataDir, "admin", "admin.sock");

/** Serves commands on the socket until the process ends; null when the place is unusable. */
export function openChannel(dataDir: string, run: (req: ChannelRequest) => Promise<ChannelAnswer>): net.Server | null {
  const file = socketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) return null;
  const dir = path.dirname(file);
  privateDataDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A folder someone else made, or a link to one, would let them in: it must be ours and private.
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return null;
  fs.chmodSync(dir, 0o700);
  fs.rmSync(file, { force: true }); // left by a process that died
  const server = net.createServer((socket) => {
    socket.setTimeout(120_000, () => socket.destroy());
    let buf = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_REQUEST_BYTES) return void socket.destroy();
      const end = buf.indexOf("\n");
      if (end < 0) return;
      socket.pause();
      let req: ChannelRequest;
      try {
        req = JSON.parse(buf.slice(0, end)) as ChannelRequest;
        if (!Array.isArray(req.argv) || !req.argv.every((a) => typeof a === "string")) throw new Error();
      } catch {
        return void socket.end(JSON.stringify({ error: "Malformed request.", exit: 2 } satisfies ChannelAnswer) + "\n");
      }
      void run(req).then((answer) => socket.end(JSON.stringify(answer) + "\n"));
    });
    socket.on("error", () => {});
  });
  server.on("error", () => {});
  server.listen(file, () => fs.chmodSync(file, 0o600));
  server.unref();
  return server;
}

/** The running server's answer, or null when no server listens (the command then runs itself). */
export function askServer(dataDir: string, req: ChannelRequest): Promise<ChannelAnswer | null> {
  const file = socketPath(dataDir);
  if (!fs.existsSync(file)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = net.connect(file);
    let buf = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(JSON.stringify(req) + "\n"));
    socket.on("data", (chunk: string) => (buf += chunk));
    socket.on("end", () => {
      try {
        resolve(JSON.parse(buf) as ChannelAnswer);
      } catch {
        reject(new Error("The running server closed the admin channel without an answer."));
      }
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      // A socket left by a server that is gone: nobody listens.
      if (e.code === "ECONNREFUSED" || e.code === "ENOENT") resolve(null);
      else reject(e);
    });
  });
}
