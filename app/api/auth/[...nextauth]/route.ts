import type { NextRequest } from "next/server";
import { handlers } from "@/lib/transports/auth";
import { LINK_CALLBACK, LINK_COOKIE, LINK_PAGE, linkConfirmed } from "@/lib/transports/auth/email-link";
import { config } from "@/lib/core/config";

// next-auth's endpoints, with one step before an e-mailed link signs anyone in: a link not
// confirmed on its page in this browser goes to that page first (lib/transports/auth/email-link.ts).
// next-auth reads the link's token and address from the query string whatever the method, so
// the step guards every method (another site's form can POST there), and it takes the last of
// a repeated parameter where this check would read the first: a link naming either twice is
// refused.
function linkStep(req: NextRequest): Response | null {
  const url = req.nextUrl;
  if (url.pathname !== LINK_CALLBACK) return null;
  const to = (location: string) =>
    new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
  const q = url.searchParams;
  if (q.getAll("token").length > 1 || q.getAll("email").length > 1) return to(`${config().origin}/signin?error=Verification`);
  if (!linkConfirmed(q.get("token") ?? "", req.cookies.get(LINK_COOKIE)?.value)) return to(`${config().origin}${LINK_PAGE}?${q}`);
  return null;
}

export const GET = (req: NextRequest) => linkStep(req) ?? handlers.GET(req);
export const POST = (req: NextRequest) => linkStep(req) ?? handlers.POST(req);
