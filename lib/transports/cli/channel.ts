import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { log } from "@/lib/core/log";
import { privateDataDir } from "@/lib/core/private-dir";

// The running server holds the embedded database (one process only), so the command line
// hands its command to the server instead, over a Unix socket in DATA_DIR: a folder only the
// service's user may enter, which is who may read the database files beside it anyway. With
// PostgreSQL the server answers the same way, which spares the command opening its own
// connection and applying migrations. Each request says which database the command means, and
// the server runs only those meant for its own: DATA_DIR says where the socket is, not which
// database a server holds (one on PostgreSQL keeps its socket there too).

/**
 * One request: the command line's arguments, create-user's password read where it was typed,
 * and which database the command means (`databaseIdentity().id`: lib/adapters/db/identity.ts).
 */
export type ChannelRequest = { argv: string[]; password?: string; database: string };
/** One answer: the command's JSON, or its error and exit code, or that this server serves another database (nothing was run). */
export type ChannelAnswer = { out: unknown } | { error: string; exit: number } | { otherDatabase: true };

const MAX_REQUEST_BYTES = 64 * 1024;
/** Unix socket paths are short (108 bytes on Linux): past that there is no channel. */
const MAX_SOCKET_PATH = 100;

export const socketPath = (dataDir: string) => path.join(dataDir, "admin", "admin.sock");

const send = (socket: net.Socket, answer: ChannelAnswer) => socket.end(JSON.stringify(answer) + "\n");

/**
 * Serves commands on the socket until the process ends, running only those meant for
 * `database` (this server's: `databaseIdentity().id`). Null when there is no channel: the
 * place is unusable, or another live server answers there (two servers started from one
 * folder), whose socket is left alone.
 */
export async function openChannel(dataDir: string, database: string, run: (req: ChannelRequest) => Promise<ChannelAnswer>): Promise<net.Server | null> {
  const file = socketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) return null;
  const dir = path.dirname(file);
  privateDataDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A folder someone else made, or a link to one, would let them in: it must be ours and private.
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return null;
  fs.chmodSync(dir, 0o700);
  if (await answers(file)) {
    log("warn", "admin channel not opened: another running server answers on its socket, and `npm run admin` reaches that one", { socket: file });
    return null;
  }
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
        return void send(socket, { error: "Malformed request.", exit: 2 });
      }
      // A command line of an earlier build says no database: it may mean another one.
      if (typeof req.database !== "string")
        return void send(socket, { error: "This command line is older than the running server: run the server's own (npm run admin).", exit: 1 });
      if (req.database !== database) return void send(socket, { otherDatabase: true });
      void run(req).then((answer) => send(socket, answer));
    });
    socket.on("error", () => {});
  });
  server.unref();
  return new Promise((resolve) => {
    server.once("error", (e) => {
      // Another server took the place between the check and now.
      log("warn", "admin channel not opened", { socket: file, error: (e as NodeJS.ErrnoException).code ?? String(e) });
      resolve(null);
    });
    server.listen(file, () => {
      fs.chmodSync(file, 0o600);
      server.on("error", () => {});
      resolve(server);
    });
  });
}

/** Whether a live process accepts connections on the socket `file` (a dead one's refuses them). */
function answers(file: string): Promise<boolean> {
  if (!fs.existsSync(file)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = net.connect(file);
    const done = (live: boolean) => {
      socket.destroy();
      resolve(live);
    };
    socket.once("connect", () => done(true));
    socket.once("error", (e: NodeJS.ErrnoException) => done(e.code !== "ECONNREFUSED" && e.code !== "ENOENT"));
    // Accepting takes no time: a socket that neither accepts nor refuses is left alone.
    socket.setTimeout(2000, () => done(true));
  });
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
