import type { TestProject } from "vitest/node";
import { TestServer } from "../e2e/harness";

// One built server per worker of the browser project, on the embedded defaults, for the files
// that need nothing of a server but users of their own (`userInBrowser`, tests/e2e/browser.ts):
// such a file creates its user instead of starting a server, whose start, embedded database and
// first pages cost seconds of CPU each time. Files that configure a server (fakes, mail,
// sign-in providers, a first start) still start their own.

/** The environment the shared servers run with, beyond a fresh server's. */
const SHARED_ENV = {
  // A post can be scheduled a second ahead, so a test need not wait out the default lead.
  SCHEDULE_MIN_LEAD_SECONDS: "1",
};

type SharedServer = { port: number; env: NodeJS.ProcessEnv };

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared servers, the worker whose VITEST_POOL_ID is n using the nth. */
    sharedServers: SharedServer[];
  }
}

export default async function setup(project: TestProject) {
  const base: NodeJS.ProcessEnv = { ...process.env, ...SHARED_ENV };
  delete base.DATABASE_URL;
  delete base.REDIS_URL;
  const servers = Array.from({ length: project.globalConfig.maxWorkers }, () => new TestServer());
  const teardown = () => Promise.all(servers.map((s) => s.teardown()));
  const started = await Promise.allSettled(
    servers.map(async (s) => {
      await s.setup(base);
      await s.start();
    }),
  );
  const failed = started.find((r) => r.status === "rejected");
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  project.provide(
    "sharedServers",
    servers.map((s) => ({ port: s.port, env: s.env })),
  );
  return teardown;
}
