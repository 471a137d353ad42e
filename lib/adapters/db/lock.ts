import fs from "node:fs";
import path from "node:path";
import { privateDataDir } from "@/lib/core/private-dir";

// PGlite has no lock of its own, and two processes opening one data directory corrupt it.
// A pid file taken with O_EXCL keeps a second process (e.g. `npm run admin` while the
// server runs) out; a pid file left by a dead process is taken over.
export function acquireDataDirLock(dataDir: string): () => void {
  privateDataDir(dataDir);
  const file = path.join(dataDir, "contentio.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {}
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = Number(fs.readFileSync(file, "utf8"));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(dataDir, holder);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is open in process ${pid} (a running server?). ` + `Stop that process first, or set DATABASE_URL to use PostgreSQL.`,
    );
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
