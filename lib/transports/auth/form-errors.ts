import type { z } from "zod";

/** The first problem of each field, as the owner's forms show them beside the field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const i of error.issues) fields[String(i.path[0])] ??= i.message;
  return fields;
}
