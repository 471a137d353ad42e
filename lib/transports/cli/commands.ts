import { config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import { AccountError, PLANS, allowPublishing, completeAccount, createUser, findUserByEmail, issueCommandLineToken, setPlan } from "@/lib/domain/owner/users";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import type { Plan } from "@/drizzle/schema";
import { isUuid } from "@/lib/core/ids";
import { AppError } from "@/lib/core/errors";
import { refusal } from "@/lib/transports/auth/form-errors";
import { checkConnections, sandboxInUse } from "@/lib/adapters/platforms/check";
import { ensureSandboxAccounts } from "@/lib/transports/owner/sandbox";
import { ports } from "@/lib/adapters/ports";
import { connectWithPassword } from "@/lib/domain/accounts/password";
import { redactSecrets } from "@/lib/core/redact";
import type { ChannelAnswer, ChannelRequest } from "./channel";
import { exitCodeOf, parseCommand, UsageError } from "./usage";

// The commands of `npm run admin` (docs/command-line.md), the same whether the command line
// runs them on the database itself or hands them to the running server (channel.ts).

function need<T>(value: T | undefined, flag: string): T {
  if (value === undefined || value === "") throw new UsageError(`--${flag} is required.`);
  return value;
}

function plan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (!(PLANS as readonly string[]).includes(value)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")}.`);
  return value as Plan;
}

/**
 * Runs one command. `open` gives the database (opened only by a command that needs it);
 * `password` is create-user's or connect-bluesky's, read beforehand where the person typing is.
 */
export async function runCommand(argv: string[], open: () => Promise<Db>, password?: string) {
  const { command, v } = parseCommand(argv);
  switch (command) {
    case "create-user": {
      const email = need(v.email, "email");
      const chosen = plan(v.plan);
      if (password === undefined) throw new UsageError("create-user needs the password.");
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
      const d = await open();
      const email = need(v.email, "email");
      const out = await issueCommandLineToken(d, {
        email,
        appName: v.app,
        scopes: [...new Set(["email", ...(scopes ?? [])])],
        expiresIn,
        audience: [baseUrl, mcpUrl],
      });
      // As the consent page does: the owner's sandbox accounts exist before the app's first
      // request, so an approval it asks for names the account its draft will go to.
      const user = await findUserByEmail(d, email);
      if (user) await ensureSandboxAccounts(d, user.id);
      return out;
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
      return { connections: await checkConnections(d, user.id), sandbox: sandboxInUse() };
    }
    case "connect-bluesky": {
      const handle = need(v.handle, "handle");
      if (password === undefined) throw new UsageError("connect-bluesky needs the app password.");
      const d = await open();
      const user = await findUserByEmail(d, need(v.email, "email"));
      if (!user) throw new AccountError(`No user with e-mail ${v.email}.`);
      try {
        return { account: await connectWithPassword(d, user.id, ports().platforms, { network: "bluesky", handle, password }) };
      } catch (e) {
        // The owner's words (each problem, then what to do), not an API's error shape.
        if (!(e instanceof AppError)) throw e;
        throw new AccountError(refusal(e));
      }
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

/** A command handed over by the command line, run by the server on its own database. */
export async function answerChannel(req: ChannelRequest, open: () => Promise<Db>): Promise<ChannelAnswer> {
  try {
    return { out: await runCommand(req.argv, open, req.password) };
  } catch (e) {
    return { error: redactSecrets(e instanceof Error ? e.message : String(e), 2000), exit: exitCodeOf(e) };
  }
}
