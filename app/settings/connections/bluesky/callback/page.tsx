import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { OwnerShell } from "@/components/owner-shell";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { CALLBACK_PATH } from "@/lib/adapters/platforms/bluesky/oauth";
import { config } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { finishOAuthConnect } from "@/lib/domain/accounts/oauth";
import { refusal } from "@/lib/transports/auth/form-errors";
import { requireOwner } from "@/lib/transports/auth/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Connect Bluesky · Contentio" };

/**
 * Where Bluesky's sign-in page sends the owner back (atproto OAuth). The sign-in is finished
 * for the signed-in owner only, and only if they started it (its `state` is bound to them and
 * used once): a link made by someone else connects nothing. Connected: back to Connections.
 */
export default async function BlueskyCallback({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = new URLSearchParams(Object.entries(await searchParams).filter((e): e is [string, string] => typeof e[1] === "string"));
  const here = `${CALLBACK_PATH}?${query}`;
  // On loopback the PDS sends the owner to 127.0.0.1 (atproto's loopback rule); their session is APP_URL's.
  const origin = config().origin;
  if ((await headers()).get("host") !== new URL(origin).host) redirect(`${origin}${here}`);
  const me = await requireOwner(here);
  let error: string;
  try {
    await finishOAuthConnect(await db(), me.id, ports().platforms, "bluesky", query);
    error = "";
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    error = refusal(e);
  }
  if (!error) redirect("/settings/connections?done=bluesky#accounts");
  return (
    <OwnerShell email={me.email} userId={me.id} current="/settings/connections">
      <h1>Connect Bluesky</h1>
      <p className="error-box" role="alert">
        {error}
      </p>
      <p>
        <a href="/settings/connections#accounts">Back to Connections</a>
      </p>
    </OwnerShell>
  );
}
