import { redirect } from "next/navigation";
import { OwnerShell } from "@/components/owner-shell";
import { db } from "@/lib/adapters/db";
import { pendingConfirmation } from "@/lib/domain/owner/email-verification";
import { confirmSignUp } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Confirm your e-mail address · Contentio", referrer: "no-referrer" };

// Where the sign-up confirmation link lands. Opening it changes nothing (mail scanners open
// links); the button confirms, with the password chosen here (lib/transports/auth/confirm-mail.ts).
export default async function ConfirmSignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const token = sp.token ?? "";
  const pending = await pendingConfirmation(await db(), token);
  if (!pending.ok) redirect(`/signin?confirm=${pending.reason === "expired" ? "expired" : "invalid"}`);
  return (
    <OwnerShell narrow>
      <h1>Confirm your e-mail address</h1>
      <form action={confirmSignUp} className="stack">
        <input type="hidden" name="token" value={token} />
        <p>
          To finish creating the Contentio account for <strong>{pending.email}</strong>, choose the password you will sign in with. It may be the one you chose
          when signing up.
        </p>
        <p className="muted">
          From now on only this password works: if someone else signed up with your address, theirs stops working and the account is yours alone.
        </p>
        {sp.error === "password" ? (
          <p className="error-box" role="alert">
            Use a password of 10 to 200 characters.
          </p>
        ) : null}
        <div>
          <label htmlFor="password">Password</label>
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
        <div className="actions">
          <button className="btn primary" type="submit">
            Confirm my address
          </button>
        </div>
      </form>
    </OwnerShell>
  );
}
