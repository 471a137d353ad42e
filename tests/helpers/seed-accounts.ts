// Seeds a user's connected LinkedIn/X/Bluesky accounts (what next-auth's sign-in with the network
// would have stored) into the database the environment names (DATABASE_URL or DATA_DIR), for
// end-to-end tests of a built server. With PGlite, run it only while the server is stopped.
//   npx tsx tests/helpers/seed-accounts.ts '{"email":"…","accounts":[{…}]}'
import { database } from "@/lib/adapters/db";
import { findUserByEmail } from "@/lib/domain/owner/users";
import { authAccounts } from "@/drizzle/schema";

type Seed = {
  email: string;
  accounts: {
    provider: "linkedin" | "twitter" | "bluesky";
    providerAccountId: string;
    access_token: string;
    refresh_token?: string;
    expires_at: number;
    handle?: string;
  }[];
};

const seed = JSON.parse(process.argv[2] ?? "{}") as Seed;
const d = await database();
let code = 0;
try {
  const user = await findUserByEmail(d.db, seed.email);
  if (!user) throw new Error(`No user with e-mail ${seed.email}`);
  for (const a of seed.accounts) {
    await d.db
      .insert(authAccounts)
      .values({ userId: user.id, type: "oauth", token_type: "bearer", status: "connected", ...a })
      .onConflictDoUpdate({ target: [authAccounts.provider, authAccounts.providerAccountId], set: { ...a, status: "connected" } });
  }
  process.stdout.write(JSON.stringify({ seeded: seed.accounts.length }) + "\n");
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  code = 1;
}
await d.close();
process.exit(code);
