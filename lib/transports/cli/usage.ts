import { parseArgs } from "node:util";
import { PasswordInputError } from "./password";

// What `npm run admin` accepts, read before anything heavy is loaded.
export const USAGE = `Usage: npm run admin -- <command> [options]
  create-user --email E [--password-stdin] [--name N] [--plan plus|premium|creator|none] [--incomplete] [--allow-publishing]
  set-plan --email E --plan plus|premium|creator|none
  allow-publishing --email E [--off]
  complete-account --email E
  issue-token --email E [--app NAME] [--scope "email profile"] [--expires-in SECONDS]
  approve --email E --id APPROVAL_ID [--deny]   (the owner's decision on a pending exact-action approval)
  check-connections --email E   (one harmless read on each connected network: reachable, scopes, expiry)
  connect-bluesky --email E --handle H [--password-stdin]   (the owner's Bluesky account, with an app password made for this service)
create-user and connect-bluesky ask for the password in a terminal; --password-stdin reads it from standard input instead.`;

export const OPTIONS = {
  email: { type: "string" },
  password: { type: "string" },
  "password-stdin": { type: "boolean" },
  name: { type: "string" },
  plan: { type: "string" },
  incomplete: { type: "boolean" },
  "allow-publishing": { type: "boolean" },
  off: { type: "boolean" },
  app: { type: "string" },
  scope: { type: "string" },
  "expires-in": { type: "string" },
  id: { type: "string" },
  deny: { type: "boolean" },
  handle: { type: "string" },
} as const;

export class UsageError extends Error {}

/** The command and its options; a usage error for anything else. */
export function parseCommand(argv: string[]) {
  const { positionals, values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError("Give exactly one command.");
  return { command: positionals[0], v: values };
}

/** 2 for a mistake in the command line (the usage is shown), 1 for anything else. */
export const exitCodeOf = (e: unknown) =>
  e instanceof UsageError || e instanceof PasswordInputError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? 2 : 1;
