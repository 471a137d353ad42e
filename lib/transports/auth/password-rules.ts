import { z } from "zod";

/** A password someone chooses (sign-up, or confirming an address in another browser). */
export const NewPassword = z.string().min(10, "Use at least 10 characters.").max(200, "Use at most 200 characters.");
