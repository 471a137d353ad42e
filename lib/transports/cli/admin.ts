import { parseArgs } from "node:util";
import { config } from "@/lib/core/config";
import { database } from "@/lib/adapters/db";
import { AccountError, PLANS, allowPublishing, completeAccount, createUser, findUserByEmail, issueCommandLineToken, setPlan } from "@/lib/domain/owner/users";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import type { Plan } from "@/drizzle/schema";
import { isUuid } from "@/lib/core/ids";
import { checkConnections } from "@/lib/adapters/platforms/check";
import { PasswordInputError, readPassword } from "./password";

// `npm run admin -- <command>` (contract section 9). One JSON object on stdout; errors on
// stderr with a non-zero exit.
const USAGE = `Usage: npm run admin -- <command> [options]
  create-user --email E [--password-stdin] [--name N] [--plan plus|premium|creator|none] [--incomplete] [--allow-publishing]
  set-plan --email E --plan plus|premium|creator|none
  allow-publishing --email E [--off]
  complete-account --email E
  issue-token --email E [--app NAME] [--scope "email profile"] [--expires-in SECONDS]
  approve --email E --id APPROVAL_ID [--deny]   (the owner's decision on a pending exact-action approval)
  check-connections --email E   (one harmless read on each connected network: reachable, scopes, expiry)
create-user asks for the password in a terminal; --password-stdin reads it from standard input instead.`;

const OPTIONS = {
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
} as const;

class UsageError extends Error {}

// Set only when a command opens the database: closing must not open it (a usage error would
// otherwise create ./.data or take the embedded database's lock just to close it again).
let opened: ReturnType<typeof database> | undefined;

function need<T>(value: T | undefined, flag: string): T {
  if (value === undefined || value === "") throw new UsageError(`--${flag} is required.`);
  return value;
}

function plan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (!(PLANS as readonly string[]).includes(value)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")}.`);
  return value as Plan;
}

async function run(argv: string[]) {
  const { positionals, values: v } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const command = positionals[0];
  if (!command || positionals.length > 1) throw new UsageError("Give exactly one command.");
  const open = async () => (await (opened = database())).db;
  switch (command) {
    case "create-user": {
      const email = need(v.email, "email");
      const chosen = plan(v.plan);
      const password = await readPassword(v);
      return createUser(await open(), {
        email,
        password,
        name: v.name,
        plan: chosen,
        complete: !v.incomplete,
        publishingAllowed: v["allow-publishing"] ?? false,
      });
    }
    case "set-plan":
      return setPlan(await open(), need(v.email, "email"), need(plan(v.plan), "plan"));
    case "allow-publishing":
      return allowPublishing(await open(), need(v.email, "email"), !v.off);
    case "complete-account":
      return completeAccount(await open(), need(v.email, "email"));
    case "issue-token": {
      const expiresIn = v["expires-in"] === undefined ? undefined : Number(v["expires-in"]);
      if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn > 0))
        throw new UsageError("--expires-in must be a positive whole number of seconds.");
      const scopes = v.scope?.split(/\s+/).filter(Boolean);
      if (scopes?.some((s) => !["email", "profile", "offline_access"].includes(s))) throw new UsageError("--scope takes email, profile and offline_access.");
      const { baseUrl, mcpUrl } = config();
      return issueCommandLineToken(await open(), {
        email: need(v.email, "email"),
        appName: v.app,
        scopes: [...new Set(["email", ...(scopes ?? [])])],
        expiresIn,
        audience: [baseUrl, mcpUrl],
      });
    }
    case "approve": {
      const d = await open();
      const user = await findUserByEmail(d, need(v.email, "email"));
      if (!user) throw new AccountError(`No user with e-mail ${v.email}.`);
      const decision = v.deny ? "denied" : "approved";
      const id = need(v.id, "id");
      if (!isUuid(id)) throw new UsageError("--id must be an approval id (a UUID).");
      const ok = await decideApproval(d, user.id, id, decision);
      if (!ok) throw new AccountError("No pending, unexpired approval with that id for this user.");
      return { id: v.id, status: decision };
    }
    case "check-connections": {
      const d = await open();
      const user = await findUserByEmail(d, need(v.email, "email"));
      if (!user) throw new AccountError(`No user with e-mail ${v.email}.`);
      return { connections: await checkConnections(d, user.id) };
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

async function main() {
  let code = 0;
  try {
    const out = await run(process.argv.slice(2));
    process.stdout.write(JSON.stringify(out) + "\n");
  } catch (e) {
    code = e instanceof UsageError || e instanceof PasswordInputError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? 2 : 1;
    const msg = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${msg}\n${code === 2 ? `\n${USAGE}\n` : ""}`);
  }
  await (await opened?.catch(() => undefined))?.close().catch(() => {});
  process.exit(code);
}

void main();
