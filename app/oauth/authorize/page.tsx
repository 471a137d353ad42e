import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { signOut } from "@/lib/transports/auth";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { clientAddress } from "@/lib/transports/http/client-address";
import { checkAuthorizeRequest, consentPurpose } from "@/lib/transports/oauth/authorize";
import { DeliberateButton } from "@/components/deliberate-button";
import { OwnerShell } from "@/components/owner-shell";
import { decideConsent } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Connect an app · Contentio" };

async function switchAccount(form: FormData) {
  "use server";
  const back = `/oauth/authorize?${String(form.get("query") ?? "")}`;
  await signOut({ redirectTo: `/signin?callbackUrl=${encodeURIComponent(back)}` });
}

/** The consent page of the OAuth authorization endpoint (the logic is in lib/transports/oauth). */
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) for (const x of [v ?? []].flat()) params.append(k, x);
  const query = params.toString();
  const check = await checkAuthorizeRequest(params, clientAddress(await headers()));
  if (!check.ok && "redirect" in check) redirect(check.redirect);
  if (!check.ok) {
    return (
      <OwnerShell narrow>
        <h1>This connection request cannot be used</h1>
        <p className="error-box" role="alert">
          {check.page}
        </p>
        <p>Nothing was shared. Go back to the app and start connecting again; if it keeps happening, the app&apos;s setup is wrong.</p>
      </OwnerShell>
    );
  }
  // Signed out: sign in (or finish onboarding) and come back to this very request.
  const me = await requireOwner(`/oauth/authorize?${query}`, { complete: true });
  const csrf = csrfToken(me.id, consentPurpose(query));
  const r = check.request;
  return (
    <OwnerShell narrow>
      <h1>
        Connect <span>{r.clientName}</span>{" "}
        {r.selfRegistered ? (
          <span className="badge" title="This app registered itself; we could not verify who made it.">
            Unverified
          </span>
        ) : null}
      </h1>
      <p>
        It will redirect to <strong>{r.redirectHost}</strong> when you are done.
        {r.metadataHost ? (
          <>
            {" "}
            It describes itself at <strong>{r.metadataHost}</strong>; its name is its own claim.
          </>
        ) : null}
      </p>
      <form action={switchAccount} className="muted">
        <input type="hidden" name="query" value={query} />
        Signed in as <strong>{me.email}</strong>.{" "}
        <button className="btn link" type="submit">
          Use another account
        </button>
      </form>
      <section className="card" aria-labelledby="can">
        <h2 id="can">{r.clientName} will be able to</h2>
        <ul className="can">
          <li>Read your drafts, series and analytics</li>
          <li>Create and edit drafts</li>
          <li>Generate posts (uses your AI credits)</li>
          {me.publishingAllowed ? <li>Publish, schedule and delete, each only after you approve the exact action</li> : null}
          {r.scopes.includes("email") ? <li>See your e-mail address</li> : null}
          {r.scopes.includes("profile") ? <li>See your name and picture</li> : null}
          {r.scopes.includes("offline_access") ? <li>Stay connected until you disconnect it in Settings &gt; Connections</li> : null}
        </ul>
        <h2>It can never</h2>
        <ul className="can">
          <li>See your password</li>
          <li>Publish, schedule or delete without your approval{me.publishingAllowed ? "" : " (publishing by apps is off for your account)"}</li>
        </ul>
      </section>
      {r.selfRegistered ? <p className="help">Only allow apps you started connecting yourself.</p> : null}
      <form action={decideConsent} className="actions">
        <input type="hidden" name="query" value={query} />
        <input type="hidden" name="csrf" value={csrf} />
        <DeliberateButton className="btn primary" type="submit" name="decision" value="allow">
          Allow
        </DeliberateButton>
        <button className="btn" type="submit" name="decision" value="cancel">
          Cancel
        </button>
      </form>
    </OwnerShell>
  );
}
