import { configuredProviders } from "@/lib/transports/auth";
import { safeReturnPath } from "@/lib/transports/auth/return-path";
import { signedInUserId } from "@/lib/transports/auth/session";
import { CredentialsForm } from "@/components/credentials-form";
import { OwnerShell } from "@/components/owner-shell";
import { resendConfirmation, signInWith, signInWithPassword } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Contentio" };

const ERRORS: Record<string, string> = {
  OAuthAccountNotLinked:
    "That account is linked to another user, or an account with its e-mail exists: sign in with your password, then connect it in Settings > Connections.",
  AccessDenied: "Sign-in was cancelled.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailRequired:
    "X does not share your e-mail address, so a new account cannot start with X. " +
    "Create an account (or sign in) first, then connect X in Settings > Connections.",
};

// After a sign-up with e-mail confirmation, and when its link is opened.
const CONFIRM: Record<string, { ok: boolean; text: string }> = {
  sent: { ok: true, text: "Check your e-mail: we sent you a link to confirm your address. Open it, then sign in." },
  done: { ok: true, text: "Your e-mail address is confirmed. You can sign in now." },
  expired: { ok: false, text: "That confirmation link has expired. Sign in with your password to get a new one." },
  invalid: { ok: false, text: "That confirmation link is not valid or was already used." },
  throttled: { ok: false, text: "Too many requests for this account or from your network. Wait 15 minutes, then try again." },
};

// next-auth's own sign-in endpoint reports a refused password sign-in with a code.
const CREDENTIAL_CODES: Record<string, string> = {
  throttled: "Too many failed sign-in attempts for this account or from your network. Wait 15 minutes, then try again.",
  unconfirmed: "Confirm your e-mail address first: open the link we e-mailed you when you signed up.",
  credentials: "Wrong e-mail or password. Check both and try again.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const callbackUrl = safeReturnPath(sp.callbackUrl);
  const providers = configuredProviders();
  const signedIn = await signedInUserId();
  const error = !sp.error
    ? null
    : sp.error === "CredentialsSignin"
      ? (CREDENTIAL_CODES[sp.code ?? ""] ?? CREDENTIAL_CODES.credentials)
      : (ERRORS[sp.error] ?? "Sign-in did not work. Please try again.");
  const confirm = sp.confirm ? CONFIRM[sp.confirm] : undefined;
  return (
    <OwnerShell narrow>
      <h1>Sign in</h1>
      {callbackUrl.startsWith("/oauth/authorize") ? <p>Sign in to connect an app to your account.</p> : null}
      {callbackUrl.startsWith("/confirm/") ? <p>Sign in to review the action an app is asking you to approve.</p> : null}
      {signedIn ? <p className="muted">You are signed in already; signing in here switches to another account.</p> : null}
      {sp.sent ? (
        <p className="ok-box" role="status">
          Check your e-mail: we sent you a sign-in link.
        </p>
      ) : null}
      {error ? (
        <p className="error-box" role="alert">
          {error}
        </p>
      ) : null}
      {confirm ? (
        <p className={confirm.ok ? "ok-box" : "error-box"} role={confirm.ok ? "status" : "alert"}>
          {confirm.text}
        </p>
      ) : null}
      <CredentialsForm action={signInWithPassword} callbackUrl={callbackUrl} submit="Sign in" resend={providers.email ? resendConfirmation : undefined} />
      <p>
        New here? <a href={`/signup?callbackUrl=${encodeURIComponent(callbackUrl)}`}>Create an account</a>
      </p>
      {providers.linkedin || providers.x ? (
        <section aria-labelledby="other">
          <h2 id="other">Or continue with</h2>
          <div className="actions">
            {providers.linkedin ? (
              <form action={signInWith.bind(null, "linkedin")}>
                <input type="hidden" name="callbackUrl" value={callbackUrl} />
                <button className="btn" type="submit">
                  LinkedIn
                </button>
              </form>
            ) : null}
            {providers.x ? (
              <form action={signInWith.bind(null, "twitter")}>
                <input type="hidden" name="callbackUrl" value={callbackUrl} />
                <button className="btn" type="submit">
                  X
                </button>
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
            <button className="btn" type="submit">
              Send me a link
            </button>
          </form>
        </section>
      ) : null}
    </OwnerShell>
  );
}
