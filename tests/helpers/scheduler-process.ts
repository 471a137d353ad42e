// A publishing process as the server runs it (the in-process scheduler against DATABASE_URL),
// without Next: tests start several of these on one PostgreSQL and kill them at will.
import { openDatabase } from "@/lib/adapters/db";
import { startScheduler } from "@/lib/adapters/scheduler";

const d = await openDatabase({ url: process.env.DATABASE_URL });
startScheduler({ db: async () => d.db, pollMs: Number(process.env.SCHEDULER_POLL_MS ?? 100) });
process.stdout.write("scheduler ready\n");
