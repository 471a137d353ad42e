import { randomBytes, randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { passwordSignIn } from "@/lib/transports/auth/password-sign-in";
import { createUser } from "@/lib/domain/owner/users";
import { FAILURES_PER_ADDRESS } from "@/lib/adapters/ratelimit/sign-in";
import { withDatabase } from "../helpers/db";

// Password guessing against the owner's sign-in (the function behind both the sign-in page
// and next-auth's own endpoint). E-mails and addresses are random so that runs sharing one
// Redis never share counts.
const database = withDatabase();
const someAddress = () => `198.19.${randomInt(256)}.${randomInt(1, 255)}`;
const PASSWORD = "correct horse battery staple";

async function someUser() {
  const email = `guess-${randomBytes(5).toString("hex")}@example.com`;
  await createUser(database.current().db, { email, password: PASSWORD });
  return email;
}

const attempt = (email: string, password: string, address: string) =>
  passwordSignIn(database.current().db, email, password, address).then((r) => (r.ok ? "signed in" : r.reason));

describe("password sign-in throttle", () => {
  it("refuses the 6th attempt on an account after 5 wrong passwords, even with the right password", async () => {
    const email = await someUser();
    const address = someAddress();
    for (let i = 0; i < 5; i++) expect(await attempt(email, `wrong-${i}`, address)).toBe("wrong");
    expect(await attempt(email, PASSWORD, address)).toBe("throttled");
    expect(await attempt(email.toUpperCase(), PASSWORD, someAddress())).toBe("throttled"); // per account, whatever the address or case
  });

  it("leaves other accounts alone", async () => {
    const victim = await someUser();
    const other = await someUser();
    const address = someAddress();
    for (let i = 0; i < 5; i++) await attempt(victim, `wrong-${i}`, address);
    expect(await attempt(other, PASSWORD, someAddress())).toBe("signed in");
  });

  it("does not count successful sign-ins, and a success clears the account's failures", async () => {
    const email = await someUser();
    const address = someAddress();
    for (let i = 0; i < 10; i++) expect(await attempt(email, PASSWORD, address)).toBe("signed in");
    for (let i = 0; i < 4; i++) expect(await attempt(email, `wrong-${i}`, address)).toBe("wrong");
    expect(await attempt(email, PASSWORD, address)).toBe("signed in");
    for (let i = 0; i < 4; i++) expect(await attempt(email, `wrong-${i}`, address)).toBe("wrong");
    expect(await attempt(email, PASSWORD, address)).toBe("signed in");
  });

  it("closes an address that tries many accounts after 20 failures, and only that address", async () => {
    const address = someAddress();
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) {
      expect(await attempt(`nobody-${randomBytes(4).toString("hex")}@example.com`, "guess", address)).toBe("wrong");
    }
    const email = await someUser();
    expect(await attempt(email, PASSWORD, address)).toBe("throttled");
    expect(await attempt(email, PASSWORD, someAddress())).toBe("signed in");
  });

  it("a browser that signed in to the account before is not locked out by a stranger's guesses, and has 5 of its own", async () => {
    const email = await someUser();
    const mine = someAddress();
    const first = await passwordSignIn(database.current().db, email, PASSWORD, mine);
    if (!first.ok) throw new Error(first.reason);
    const device = first.device; // kept by the browser as a cookie
    // Someone elsewhere guesses until the account closes to everyone else.
    const stranger = someAddress();
    for (let i = 0; i < 5; i++) expect(await attempt(email, `wrong-${i}`, stranger)).toBe("wrong");
    expect(await attempt(email, PASSWORD, someAddress())).toBe("throttled");
    const withDevice = (password: string, d = device) =>
      passwordSignIn(database.current().db, email, password, mine, d).then((r) => (r.ok ? "signed in" : r.reason));
    // A proof made for another account's browser, or a forged one, counts for nothing.
    const other = await someUser();
    const theirs = await passwordSignIn(database.current().db, other, PASSWORD, someAddress());
    if (!theirs.ok) throw new Error(theirs.reason);
    expect(await withDevice(PASSWORD, theirs.device)).toBe("throttled");
    expect(await withDevice(PASSWORD, `${device.split(".")[0]}.forged`)).toBe("throttled");
    expect(await withDevice(PASSWORD)).toBe("signed in");
    // Its own guesses are limited like anyone's.
    for (let i = 0; i < 5; i++) expect(await withDevice(`wrong-${i}`)).toBe("wrong");
    expect(await withDevice(PASSWORD)).toBe("throttled");
  });

  it("checks at most 5 passwords of guesses sent all at once", async () => {
    const email = await someUser();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(email, `wrong-${i}`, someAddress())));
    expect(results.filter((r) => r === "wrong")).toHaveLength(5);
    expect(results.filter((r) => r === "throttled")).toHaveLength(15);
    expect(await attempt(email, PASSWORD, someAddress())).toBe("throttled");
  });
});
