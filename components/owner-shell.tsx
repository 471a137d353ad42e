import Link from "next/link";
import type { ReactNode } from "react";
import { signOut } from "@/lib/transports/auth";
import { db } from "@/lib/adapters/db";
import { attention } from "@/lib/domain/owner/owner";
import { WriteShortcut } from "./write-shortcut";
import { MenuOpener } from "./menu-opener";
import "./owner.css";
import "./workspace.css";

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: "/signin" });
}

const NAV = [
  ["/content", "Content"],
  ["/queue", "Queue"],
  ["/calendar", "Calendar"],
  ["/approvals", "Approvals"],
  ["/analytics", "Analytics"],
  ["/settings/connections", "Connections"],
  ["/settings/webhooks", "Webhooks"],
  ["/onboarding", "Profile & voice"],
] as const;

/** While anything failed, is unconfirmed or waits for approval, every page says so. */
async function AttentionBanner({ userId }: { userId: string }) {
  const a = await attention(await db(), userId);
  if (!a.total) return null;
  const drafts = [a.failed ? `${a.failed} failed` : null, a.unknown ? `${a.unknown} not confirmed by the platform` : null].filter(Boolean);
  // Two kinds of attention, two places: drafts that went wrong are fixed from the content list,
  // an app's requests are decided from the approvals inbox.
  return (
    <aside className="attention" aria-label="Needs attention">
      <strong>Needs attention:</strong>{" "}
      {drafts.length ? (
        <>
          {drafts.join(", ")}. <Link href="/content?status=attention">Review them</Link>
          {a.waiting ? " " : null}
        </>
      ) : null}
      {a.waiting ? (
        <>
          {a.waiting} {a.waiting === 1 ? "request" : "requests"} waiting for your approval. <Link href="/approvals">Review requests</Link>
        </>
      ) : null}
    </aside>
  );
}

/** Approvals in the navigation, with how many requests wait for the owner (when the page knows whose it is). */
async function ApprovalsLink({ userId, current }: { userId?: string; current?: string }) {
  const waiting = userId ? (await attention(await db(), userId)).waiting : 0;
  return (
    <a href="/approvals" aria-current={current === "/approvals" ? "page" : undefined}>
      Approvals
      {waiting ? (
        <>
          {" "}
          <span className="nav-count">{waiting}</span>
          <span className="sr-only"> waiting</span>
        </>
      ) : null}
    </a>
  );
}

/**
 * The frame of the owner's pages; `email` shows the account, the navigation and a sign-out
 * button; `userId` adds the "Needs attention" banner; `current` marks the page in the nav.
 */
export function OwnerShell({
  email,
  userId,
  current,
  narrow,
  wide,
  children,
}: {
  email?: string;
  userId?: string;
  current?: string;
  narrow?: boolean;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <header className="topbar">
        <Link className="brand" href={email ? "/content" : "/"}>
          Contentio
        </Link>
        {email ? (
          <nav aria-label="Account" className="topnav">
            <Link href="/write" aria-current={current === "/write" ? "page" : undefined} aria-keyshortcuts="Alt+N" title="Write (Alt+N)" className="nav-write">
              Write
            </Link>
            <WriteShortcut />
            {/* On a phone the rest folds behind "Menu" (a native disclosure: keyboard and screen
                readers know it, no script needed); wider screens show it open (owner.css). */}
            <details className="nav-menu">
              <summary>Menu</summary>
              <div className="nav-links">
                {NAV.map(([href, text]) =>
                  href === "/approvals" ? (
                    <ApprovalsLink key={href} userId={userId} current={current} />
                  ) : (
                    <a key={href} href={href} aria-current={current === href ? "page" : undefined}>
                      {text}
                    </a>
                  ),
                )}
                <span className="muted">{email}</span>
                <form action={signOutAction}>
                  <button className="btn link" type="submit">
                    Sign out
                  </button>
                </form>
              </div>
            </details>
            <MenuOpener />
          </nav>
        ) : null}
      </header>
      <main className={`owner${narrow ? " narrow" : ""}${wide ? " wide" : ""}`}>
        {userId ? <AttentionBanner userId={userId} /> : null}
        {children}
      </main>
    </>
  );
}
