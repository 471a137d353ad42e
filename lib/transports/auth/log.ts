import type { NextAuthConfig } from "next-auth";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";

// next-auth's own logger prints an error's cause with its stack and details: a failed query's
// text and parameters (a connection's platform tokens), and for a wrong password a stack of
// many lines. Here each is one line of the service's log, with the cause's facts only.

type AuthFailure = Error & { type?: string; code?: unknown; cause?: { err?: unknown } };

export const authLogger: NonNullable<NextAuthConfig["logger"]> = {
  error(e) {
    const err = e as AuthFailure;
    const type = err.type ?? err.name;
    // Routine: a wrong password, or an account throttled or waiting for its confirmation.
    if (type === "CredentialsSignin") return log("info", "sign-in refused", { type, ...(typeof err.code === "string" && { code: err.code }) });
    log("error", "sign-in failed", { type, ...errorFacts(err.cause?.err ?? err) });
  },
  warn(code) {
    log("warn", "sign-in warning", { code });
  },
  // Debug output holds cookies, tokens and request bodies: never written.
  debug() {},
};
