import { describe, expect, it } from "vitest";
import type { AccountView } from "@/lib/domain/accounts/accounts";
import { rowsOfCsv } from "@/lib/transports/owner/import-csv";

// The Import page's file as import_drafts' rows: the columns docs/owner-pages.md lists, a date
// and time on the owner's wall clock, accounts by handle or name, and the file's own problems.

const account = (network: "linkedin" | "x" | "bluesky", id: string, handle: string | null, name: string | null): AccountView => ({
  account_id: id,
  platform: network === "linkedin" ? "pronet" : "micro",
  network,
  kind: "person",
  name,
  handle,
  default: false,
  state: "connected",
  sandbox: false,
});
const ACCOUNTS = [
  account("x", "x-1", "writer", "Wren"),
  account("bluesky", "b-1", "wren.bsky.social", "Wren"),
  account("linkedin", "li-1", null, "Wren Writer"),
];

describe("rowsOfCsv", () => {
  it("reads every column, quoted newlines and commas, thread parts in number order", () => {
    const csv =
      "\uFEFFNetwork,Account,Text,Date,Time,image_url,alt,first_comment,thread_3,thread_2\r\n" +
      'x,@Writer,"One, two\nthree",2030-03-31,09:30,https://app.example/media/1,A dot,The link,Third,Second\r\n' +
      "twitter,,Alias,,,,,,,\r\n" +
      "linkedin,wren writer,Post,,,,,,,\r\n";
    const out = rowsOfCsv(csv, ACCOUNTS, "Europe/Berlin");
    expect(out).toEqual({
      rows: [
        {
          network: "x",
          account_id: "x-1",
          text: "One, two\nthree",
          scheduled_for: "2030-03-31T07:30:00.000Z", // summer time in Berlin: UTC+2
          image_urls: ["https://app.example/media/1"],
          first_comment: "The link",
          thread: ["Second", "Third"],
        },
        { network: "x", text: "Alias" },
        { network: "linkedin", account_id: "li-1", text: "Post" },
      ],
      alts: [{ url: "https://app.example/media/1", alt: "A dot" }],
      problems: [],
    });
  });

  it("names the row of a date without a time and of an account the owner does not have", () => {
    const out = rowsOfCsv("network,account,text,date,time\nx,,a,2030-01-01,\nbluesky,@writer,b,,\nx,,c,2030-02-30,10:00\n", ACCOUNTS, "UTC");
    expect("problems" in out && out.problems).toEqual([
      { path: "rows.0.time", message: "Row 1 (time): Give both a date (YYYY-MM-DD) and a time (HH:MM, 24-hour), or neither" },
      { path: "rows.1.account", message: 'Row 2 (account): No Bluesky account of yours is called "@writer"' },
      { path: "rows.2.date", message: "Row 3 (date): Give both a date (YYYY-MM-DD) and a time (HH:MM, 24-hour), or neither" },
    ]);
  });

  it("refuses a file it cannot take as a whole: unknown columns, no text column, too many rows, not CSV", () => {
    expect(rowsOfCsv("network,text,colour\nx,a,red\n", ACCOUNTS, "UTC")).toEqual({ error: expect.stringContaining('Unknown column "colour"') });
    expect(rowsOfCsv("network,body\nx,a\n", ACCOUNTS, "UTC")).toEqual({ error: expect.stringContaining('Unknown column "body"') });
    expect(rowsOfCsv("network\nx\n", ACCOUNTS, "UTC")).toEqual({ error: 'The file has no "text" column.' });
    expect(rowsOfCsv(`network,text\n${"x,a\n".repeat(201)}`, ACCOUNTS, "UTC")).toEqual({ error: expect.stringContaining("at most 200 rows") });
    expect(rowsOfCsv(`network,text\n${"x,a\n".repeat(200)}`, ACCOUNTS, "UTC")).toMatchObject({ problems: [] });
    expect(rowsOfCsv('network,text\nx,"unclosed\n', ACCOUNTS, "UTC")).toEqual({ error: expect.stringContaining("not CSV that can be read") });
    expect(rowsOfCsv("network,text\n", ACCOUNTS, "UTC")).toEqual({ error: "The file has no rows under its header." });
  });
});
