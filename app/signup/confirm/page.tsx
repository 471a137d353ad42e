import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { OwnerShell } from "@/components/owner-shell";
import { SIGN_UP_COOKIE, signedUpHere } from "@/lib/auth/confirm-mail";
import { db } from "@/lib/db";
import { pendingConfirmation } from "@/lib/domain/email-verification";
import { confirmSignUp } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Confirm your e-mail address · Contentio", referrer: "no-referrer" };

// Where the sign-up confirmation link lands. Opening it changes nothing (mail scanners open
// links); the button confirms. Outside the browser that signed up, it asks for a new password.
export default async function ConfirmSignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const token = sp.token ?? "";
  const pending = await pendingConfirmation(await db(), token);
  if (!pending.ok) redirect(`/signin?confirm=${pending.reason === "expired" ? "expired" : "invalid"}`);
  const here = signedUpHere(pending.userId, (await cookies()).get(SIGN_UP_COOKIE)?.value);
  return (
    <OwnerShell narrow>
      <h1>Confirm your e-mail address</h1>
      <form action={confirmSignUp} className="stack">
        <input type="hidden" name="token" value={token} />
        {here ? (
          <p>
            Confirm <strong>{pending.email}</strong> to finish creating your Contentio account. Then sign in with the password you chose.
          </p>
        ) : (
          <>
            <p>
              This link confirms <strong>{pending.email}</strong>, but it was opened in a different browser from the one that created the account. Choose a
              password to finish: the one chosen at sign-up will no longer work.
            </p>
            <p className="muted">If you did not sign up, someone else used your address. Choosing a password here makes the account yours alone.</p>
            {sp.error === "password" ? (
              <p className="error-box" role="alert">
                Use a password of 10 to 200 characters.
              </p>
            ) : null}
            <div>
              <label htmlFor="password">New password</label>
              <input
                id="password"
                name="password"
                type="password"
                required
                minLength={10}
                maxLength={200}
                autoComplete="new-password"
                aria-describedby="password-help"
              />
              <span id="password-help" className="help">
                At least 10 characters.
              </span>
            </div>
          </>
        )}
        <div className="actions">
          <button className="btn primary" type="submit">
            {here ? "Confirm my address" : "Confirm and set password"}
          </button>
        </div>
      </form>
    </OwnerShell>
  );
}
