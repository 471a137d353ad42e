import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { confirmEmail } from "@/lib/domain/email-verification";

export const dynamic = "force-dynamic";

// The link in the sign-up confirmation e-mail. Opening it is the proof of the mailbox; the
// person then signs in with the password as usual.
export async function GET(req: Request) {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const result = await confirmEmail(await db(), token);
  const outcome = result.ok ? "done" : result.reason === "expired" ? "expired" : "invalid";
  return new Response(null, {
    status: 303,
    headers: { Location: `${new URL(config().origin).origin}/signin?confirm=${outcome}`, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}
