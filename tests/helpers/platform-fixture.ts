import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { db } from "@/lib/adapters/db";
import { signInScopes } from "@/lib/domain/networks/scopes";
import { authAccounts } from "@/drizzle/schema";
import type { TestUser } from "./api";
import { reconfigure } from "./env";
import { fakePlatformEnv, startFakePlatforms, type FakePlatforms } from "./fake-platforms";

// This file's fake LinkedIn and X on loopback, configured as the service's platforms (so the
// real adapters publish to them), and the user's connections to them.

export type PlatformFixture = {
  /** The fakes (started before the file's tests). */
  readonly fake: FakePlatforms;
  /**
   * Connects the user's account as this service's sign-in does today (its scopes, unless
   * `scopes` says what an older connection was granted), with a token the fake accepts
   * (unless `valid: false`): the account id and that token.
   */
  connect(
    u: TestUser,
    provider: "linkedin" | "twitter",
    opts?: { expired?: boolean; valid?: boolean; refresh?: string | null; scopes?: string[]; id?: string },
  ): Promise<{ accountId: string; access: string }>;
};

/**
 * Starts the fakes for this file (or describe block); after each test, forgets queued
 * misbehaviour and checks that no request departed from the networks' contract.
 */
export function withFakePlatforms(config: Record<string, string> = {}): PlatformFixture {
  let fake: FakePlatforms | undefined;
  let restore = () => {};
  beforeAll(async () => {
    fake = await startFakePlatforms();
    // Long enough that a loaded machine's slow answer is never taken for a hang; the few tests
    // of a hang (a fake that never answers) wait this long once each.
    restore = reconfigure({ ...fakePlatformEnv(fake), PUBLISH_TIMEOUT_MS: "8000", ...config });
  });
  afterAll(async () => {
    restore();
    await fake?.close();
  });
  afterEach(() => {
    fake?.calm();
    // Every request stayed within the networks' published contract (and each test says so alone).
    expect(fake?.badRequests.splice(0)).toEqual([]);
    fake?.refusals.splice(0);
  });
  return {
    get fake() {
      return fake!;
    },
    async connect(u, provider, opts = {}) {
      const route = provider === "linkedin" ? "linkedin" : "x";
      const access = `${route}-tok-${randomUUID()}`;
      const accountId = opts.id ?? `${route}-${randomUUID()}`;
      const scopes = opts.scopes ?? signInScopes(provider === "linkedin" ? "linkedin" : "x");
      if (opts.valid !== false) fake!.grant(route, access, { scopes, member: accountId });
      await (await db()).insert(authAccounts).values({
        userId: u.id,
        type: "oauth",
        provider,
        providerAccountId: accountId,
        access_token: access,
        refresh_token: opts.refresh ?? null,
        expires_at: Math.floor(Date.now() / 1000) + (opts.expired ? -10 : 3600),
        handle: provider === "twitter" ? "writer" : null,
        // As each network writes a granted scope: X with spaces, LinkedIn with commas.
        scope: scopes.join(provider === "linkedin" ? "," : " "),
      });
      return { accountId, access };
    },
  };
}
