import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyPassword } from "@/lib/domain/owner/sign-in";
import { createOwner } from "@/lib/core/startup";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";

// The first start's owner password: output ends up in collected container logs, so it goes to
// a file only the service's user can read, and the output says where.

const database = withDatabase();
withConfig({ LOG_LEVEL: "info" });
const OWNER = "owner@example.com";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-owner-password-"));
let output = "";

beforeAll(() => {
  for (const stream of [process.stdout, process.stderr])
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      output += String(chunk);
      return true;
    });
});
afterAll(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const signsIn = async (password: string) => (await verifyPassword(database.current().db, OWNER, password)) !== null;

describe("the owner created on the first start", () => {
  it("is not created while its password cannot be written, and is on the next start", async () => {
    fs.writeFileSync(path.join(dir, "a-file"), "");
    output = "";
    await createOwner(database.current().db, OWNER, path.join(dir, "a-file", "owner-password"));
    expect(output).toContain("owner not created: its password could not be written");
    expect(output).not.toContain("Owner account created");
    const users = await database.current().db.query.users.findMany();
    expect(users).toHaveLength(0);
  });

  it("has its password in a file only this user can read, replacing a link there, and only the file's place is printed", async () => {
    const data = path.join(dir, "data");
    const file = path.join(data, "owner-password");
    const elsewhere = path.join(dir, "elsewhere");
    fs.writeFileSync(elsewhere, "untouched");
    fs.mkdirSync(data);
    fs.symlinkSync(elsewhere, file);
    output = "";
    await createOwner(database.current().db, OWNER, file);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(elsewhere, "utf8")).toBe("untouched");
    const password = fs.readFileSync(file, "utf8").trim();
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(await signsIn(password)).toBe(true);
    expect(output).toContain("Owner account created");
    expect(output).toContain(`password: in ${file}`);
    expect(output).not.toContain(password);
  });

  it("is not created again, and its file is left alone, on later starts", async () => {
    const file = path.join(dir, "data", "owner-password");
    const before = fs.readFileSync(file, "utf8");
    output = "";
    await createOwner(database.current().db, OWNER, file);
    expect(output).toBe("");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });
});
