import { safeReturnUrl } from "@/lib/transports/auth/return-path";
import { OwnerShell } from "@/components/owner-shell";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in with your link · Contentio" };

// Where an e-mailed sign-in link lands: it names the account and signs in only when asked to
// here (lib/transports/auth/email-link.ts), so a link someone else sent this browser to does nothing.
export default async function SignInLinkPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  // A parameter given twice (an array here) makes the link incomplete, as the callback refuses it.
  const email = typeof sp.email === "string" ? sp.email : "";
  const token = typeof sp.token === "string" ? sp.token : "";
  if (!email || !token) {
    return (
      <OwnerShell narrow>
        <h1>Sign in</h1>
        <p className="error-box" role="alert">
          This sign-in link is incomplete. Ask for a new one on the <a href="/signin">sign-in page</a>.
        </p>
      </OwnerShell>
    );
  }
  return (
    <OwnerShell narrow>
      <h1>Sign in as {email}</h1>
      <p>
        This link signs you in to Contentio as <strong>{email}</strong>.
      </p>
      <p className="muted">If you did not ask for a sign-in link just now, close this page: someone may be trying to sign you in to their account.</p>
      <form method="post" action="/signin/link/confirm">
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="callbackUrl" value={safeReturnUrl(sp.callbackUrl)} />
        <button className="btn primary" type="submit">
          Sign in as {email}
        </button>
      </form>
    </OwnerShell>
  );
}
