import Link from "next/link";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { signedInUserId } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { OwnerShell } from "@/components/owner-shell";

export const metadata = { title: "Not found · Contentio" };

// Any address nothing answers, and an item that is not the visitor's: the same page, with the
// navigation for a signed-in owner.
export default async function NotFound() {
  const id = await signedInUserId();
  const me = id ? await getProfile(await db(), id) : undefined;
  return (
    <OwnerShell email={me?.email} userId={me ? id! : undefined}>
      <h1>Not found</h1>
      <p>There is nothing at this address, or it is not yours to see.</p>
      <p>{me ? <Link href="/content">Go to your content</Link> : <Link href="/signin">Sign in</Link>}</p>
    </OwnerShell>
  );
}
