import { configuredProviders } from "@/lib/auth";
import { safeReturnPath } from "@/lib/auth/return-path";
import { signedInUserId } from "@/lib/auth/session";
import { CredentialsForm } from "@/components/credentials-form";
import { OwnerShell } from "@/components/owner-shell";
import { signInWith, signInWithPassword } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Contentio" };

const ERRORS: Record<string, string> = {
  OAuthAccountNotLinked: "That account is linked to another user, or an account with its e-mail exists: sign in with your password, then connect it in Settings > Connections.",
  AccessDenied: "Sign-in was cancelled.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailRequired: "X does not share your e-mail address, so a new account cannot start with X. Create an account (or sign in) first, then connect X in Settings > Connections.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const callbackUrl = safeReturnPath(sp.callbackUrl);
  const providers = configuredProviders();
  const signedIn = await signedInUserId();
  const error = sp.error ? (ERRORS[sp.error] ?? "Sign-in did not work. Please try again.") : null;
  return (
    <OwnerShell narrow>
      <h1>Sign in</h1>
      {callbackUrl.startsWith("/oauth/authorize") ? <p>Sign in to connect an app to your account.</p> : null}
      {callbackUrl.startsWith("/confirm/") ? <p>Sign in to review the action an app is asking you to approve.</p> : null}
      {signedIn ? <p className="muted">You are signed in already; signing in here switches to another account.</p> : null}
      {sp.sent ? <p className="ok-box" role="status">Check your e-mail: we sent you a sign-in link.</p> : null}
      {error ? <p className="error-box" role="alert">{error}</p> : null}
      <CredentialsForm action={signInWithPassword} callbackUrl={callbackUrl} submit="Sign in" />
      <p>New here? <a href={`/signup?callbackUrl=${encodeURIComponent(callbackUrl)}`}>Create an account</a></p>
      {providers.linkedin || providers.x ? (
        <section aria-labelledby="other">
          <h2 id="other">Or continue with</h2>
          <div className="actions">
            {providers.linkedin ? (
              <form action={signInWith.bind(null, "linkedin")}>
                <input type="hidden" name="callbackUrl" value={callbackUrl} />
                <button className="btn" type="submit">LinkedIn</button>
              </form>
            ) : null}
            {providers.x ? (
              <form action={signInWith.bind(null, "twitter")}>
                <input type="hidden" name="callbackUrl" value={callbackUrl} />
                <button className="btn" type="submit">X</button>
              </form>
            ) : null}
          </div>
          <p className="help">This also connects that account for publishing.</p>
        </section>
      ) : null}
      {providers.email ? (
        <section aria-labelledby="link">
          <h2 id="link">Or get a sign-in link by e-mail</h2>
          <form action={signInWith.bind(null, "nodemailer")} className="stack">
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <div>
              <label htmlFor="link-email">E-mail</label>
              <input id="link-email" name="email" type="email" autoComplete="email" required />
            </div>
            <button className="btn" type="submit">Send me a link</button>
          </form>
        </section>
      ) : null}
    </OwnerShell>
  );
}
