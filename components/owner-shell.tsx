import Link from "next/link";
import type { ReactNode } from "react";
import { signOut } from "@/lib/auth";
import "./owner.css";

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: "/signin" });
}

/**
 * The frame of the owner's pages; `email` shows the account and a sign-out button. `wide`
 * leaves room for two versions of a text side by side.
 */
export function OwnerShell({ email, narrow, wide, children }: { email?: string; narrow?: boolean; wide?: boolean; children: ReactNode }) {
  return (
    <>
      <header className="topbar">
        <Link className="brand" href="/">Contentio</Link>
        {email ? (
          <nav aria-label="Account">
            <a href="/settings/connections">Connections</a>
            <a href="/onboarding">Profile &amp; voice</a>
            <span className="muted">{email}</span>
            <form action={signOutAction}>
              <button className="btn link" type="submit">Sign out</button>
            </form>
          </nav>
        ) : null}
      </header>
      <main className={`owner${narrow ? " narrow" : ""}${wide ? " wide" : ""}`}>{children}</main>
    </>
  );
}
