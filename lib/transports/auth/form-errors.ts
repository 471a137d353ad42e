import type { z } from "zod";
import type { AppError } from "@/lib/core/errors";

/** The first problem of each field, as the owner's forms show them beside the field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const i of error.issues) fields[String(i.path[0])] ??= i.message;
  return fields;
}

/** An operation's refusal as an owner's form shows it: each field problem, else the API's message and hint. */
export const refusal = (e: Pick<AppError, "message" | "hint" | "details">) =>
  e.details?.length ? e.details.map((d) => `${d.message}.`).join(" ") : [e.message, e.hint].filter(Boolean).join(" ");

/** The answer to a form whose CSRF token is missing, forged or too old. */
export const expired = () => ({ error: "This page had expired, so nothing changed. Reload it and try again." });
