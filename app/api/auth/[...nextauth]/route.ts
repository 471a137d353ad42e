import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { LINK_CALLBACK, LINK_COOKIE, LINK_PAGE, linkConfirmed } from "@/lib/auth/email-link";
import { config } from "@/lib/config";

// next-auth's endpoints, with one step before an e-mailed link signs anyone in: a link not
// confirmed on its page in this browser goes to that page first (lib/auth/email-link.ts).
export async function GET(req: NextRequest) {
  const url = req.nextUrl;
  if (url.pathname === LINK_CALLBACK && !linkConfirmed(url.searchParams.get("token") ?? "", req.cookies.get(LINK_COOKIE)?.value)) {
    return new Response(null, {
      status: 303,
      headers: { Location: `${config().origin}${LINK_PAGE}?${url.searchParams}`, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
    });
  }
  return handlers.GET(req);
}

export const { POST } = handlers;
