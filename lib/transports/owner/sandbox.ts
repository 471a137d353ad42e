import type { Db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { syncSandboxAccounts } from "@/lib/domain/accounts/sandbox";
import { network, type PlatformName } from "@/lib/domain/networks";

// The owner's pages give the owner their sandbox accounts (lib/domain/accounts/sandbox.ts) the
// first time they are drawn in a process, and remove those a newly configured network replaced:
// the configuration is read once per process, so once per owner and configuration is enough.
const synced = new Map<string, string>();

export async function ensureSandboxAccounts(d: Db, userId: string) {
  const sandboxed = (p: PlatformName) => !ports().platforms.configured(network(p).id);
  const key = `${sandboxed("pronet")},${sandboxed("micro")}`;
  if (synced.get(userId) === key) return;
  await syncSandboxAccounts(d, userId, sandboxed);
  synced.set(userId, key);
}
