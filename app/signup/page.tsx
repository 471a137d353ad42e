import { safeReturnPath } from "@/lib/transports/auth/return-path";
import { CredentialsForm } from "@/components/credentials-form";
import { OwnerShell } from "@/components/owner-shell";
import { signUp } from "../signin/actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Create an account · Contentio" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const callbackUrl = safeReturnPath((await searchParams).callbackUrl);
  return (
    <OwnerShell narrow>
      <h1>Create an account</h1>
      <p>Next you will tell us your name, time zone and how you write.</p>
      <CredentialsForm action={signUp} callbackUrl={callbackUrl} submit="Create account" newPassword />
      <p>
        Have an account? <a href={`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`}>Sign in</a>
      </p>
    </OwnerShell>
  );
}
