import { LINK_CALLBACK, LINK_COOKIE, linkProof } from "@/lib/transports/auth/email-link";
import { safeReturnUrl } from "@/lib/transports/auth/return-path";
import { config } from "@/lib/core/config";

export const dynamic = "force-dynamic";

// The link page's button: a POST from this service's own page (its Origin says so; another
// site cannot send one), which marks this browser as having confirmed this link, then follows
// it. The cookie names only this link's token and lives for as long as a link is worth trying.
export async function POST(req: Request) {
  const origin = new URL(config().origin).origin;
  const back = (path: string) => new Response(null, { status: 303, headers: { Location: `${origin}${path}`, "Cache-Control": "no-store" } });
  if (req.headers.get("origin") !== origin) return back("/signin?error=Verification");
  const form = await req.formData().catch(() => null);
  const token = String(form?.get("token") ?? "");
  const email = String(form?.get("email") ?? "");
  if (!token || token.length > 200 || !email || email.length > 254) return back("/signin?error=Verification");
  const res = back(`${LINK_CALLBACK}?${new URLSearchParams({ callbackUrl: safeReturnUrl(form?.get("callbackUrl")), token, email })}`);
  const secure = origin.startsWith("https:") ? "; Secure" : "";
  res.headers.append("Set-Cookie", `${LINK_COOKIE}=${linkProof(token)}; Path=${LINK_CALLBACK}; Max-Age=600; HttpOnly; SameSite=Lax${secure}`);
  return res;
}
