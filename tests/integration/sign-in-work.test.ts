import { randomBytes, randomInt } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/adapters/db";
import { awaitsOnboarding } from "@/lib/domain/owner/onboarding";
import { createUser } from "@/lib/domain/owner/users";
import { passwordSignIn } from "@/lib/transports/auth/password-sign-in";
import { withDatabase } from "../helpers/db";

// A refused sign-in must not say whether the e-mail has an account: the work done for an
// unknown e-mail and for a known one with a wrong password is the same (the same queries,
// one argon2 check with the same cost), so the time is too. Counted rather than timed: the
// database handle is counted where it is handed in, argon2 where it is called.

const argon2 = vi.hoisted(() => ({ hash: 0, verify: 0, verified: [] as string[] }));
vi.mock("@node-rs/argon2", async (original) => {
  const real = await original<typeof import("@node-rs/argon2")>();
  return {
    ...real,
    hash: (...args: Parameters<typeof real.hash>) => (argon2.hash++, real.hash(...args)),
    verify: (...args: Parameters<typeof real.verify>) => (argon2.verify++, argon2.verified.push(String(args[0])), real.verify(...args)),
  };
});

const database = withDatabase();
const someAddress = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

/** The database handle, each query built on it counted by kind. */
function counted(db: Db) {
  const queries: string[] = [];
  const handle = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function" || !["select", "insert", "update", "delete", "execute", "transaction", "query"].includes(String(key))) return value;
      return (...args: unknown[]) => (queries.push(String(key)), value.apply(target, args));
    },
  });
  return { handle, queries };
}

/** What one refused sign-in did, as the sign-in form does it: where it lands after, then the password. */
async function workOf(email: string, password: string) {
  const { handle, queries } = counted(database.current().db);
  argon2.hash = argon2.verify = 0;
  argon2.verified = [];
  await awaitsOnboarding(handle, email);
  const result = await passwordSignIn(handle, email, password, someAddress());
  expect(result).toEqual({ ok: false, reason: "wrong" });
  return { queries, hashes: argon2.hash, verifies: argon2.verify, cost: argon2.verified.map((h) => h.split("$").slice(1, 4).join("$")) };
}

describe("a refused sign-in", () => {
  it("does the same work whether or not the e-mail has an account, from the first attempt on", async () => {
    // First in this process: nothing made beforehand may be made now, for one case only.
    const unknown = await workOf(`nobody-${randomBytes(4).toString("hex")}@example.com`, "some guess");
    const email = `known-${randomBytes(4).toString("hex")}@example.com`;
    await createUser(database.current().db, { email, password: "the right password" });
    const known = await workOf(email, "some guess");
    expect(unknown).toEqual(known);
    expect(known).toMatchObject({ hashes: 0, verifies: 1 });
    // The same argon2 cost as the real hash (variant, version, memory, time, lanes).
    const [real] = await database.current().db.query.users.findMany({ where: (u, { eq }) => eq(u.email, email) });
    expect(unknown.cost).toEqual([real.passwordHash!.split("$").slice(1, 4).join("$")]);
    expect(await workOf(`other-${randomBytes(4).toString("hex")}@example.com`, "x")).toEqual(known);
  });
});
