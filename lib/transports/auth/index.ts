import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import LinkedIn from "next-auth/providers/linkedin";
import Nodemailer from "next-auth/providers/nodemailer";
import Twitter from "next-auth/providers/twitter";
import { cookies, headers } from "next/headers";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { dropUnconfirmedPassword } from "@/lib/domain/owner/email-verification";
import { storePlatformTokens } from "@/lib/domain/owner/sign-in";
import { syncLinkedInPages } from "@/lib/adapters/platforms/linkedin-pages";
import { clientAddress } from "@/lib/transports/http/client-address";
import { mailServer } from "@/lib/adapters/mail/server";
import { signInScopes } from "@/lib/domain/networks/scopes";
import { takeSignInAttempt } from "@/lib/adapters/ratelimit/sign-in";
import { authAccounts, authSessions, authVerificationTokens, users } from "@/drizzle/schema";
import { authLogger } from "./log";
import { DEVICE_COOKIE, passwordSignIn } from "./password-sign-in";
import { safeReturnUrl } from "./return-path";
import { authSecret } from "./secret";

// The owner's sign-in. Sessions are JWTs because the Credentials provider (e-mail + password,
// always on) cannot create database sessions; the adapter still stores users, the LinkedIn /
// X connections (auth_accounts) and e-mail link tokens. The configuration is built per
// request (lazily) so that `next build` never opens the database or the secret file.
async function authConfig(): Promise<NextAuthConfig> {
  const c = config();
  pinAuthUrl(c.origin);
  const providers: NextAuthConfig["providers"] = [
    Credentials({
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: async (raw, request) => {
        const email = typeof raw?.email === "string" ? raw.email : "";
        const password = typeof raw?.password === "string" ? raw.password : "";
        if (!email || !password) return null;
        const jar = await cookies();
        const result = await passwordSignIn(await db(), email, password, clientAddress(request.headers), jar.get(DEVICE_COOKIE)?.value);
        if (result.ok) {
          // This browser may sign in to this account past strangers' failed guesses from now on.
          jar.set(DEVICE_COOKIE, result.device, {
            httpOnly: true,
            sameSite: "lax",
            secure: c.origin.startsWith("https:"),
            path: "/",
            maxAge: 400 * 86400,
          });
          return result.user;
        }
        if (result.reason === "wrong") return null;
        // The code reaches the sign-in page (the action's error, or `?code=` from next-auth's
        // own endpoint) so that it can say what happened.
        throw Object.assign(new CredentialsSignin(), { code: result.reason });
      },
    }),
  ];
  // Signing in with LinkedIn or X also connects that account for publishing: the scopes are
  // those of every endpoint the adapters call (lib/adapters/platforms/scopes.ts). The endpoints are
  // configurable so that tests can point them at local fakes; the defaults are the real ones.
  const base = (u: string) => u.replace(/\/+$/, "");
  if (c.LINKEDIN_CLIENT_ID && c.LINKEDIN_CLIENT_SECRET) {
    providers.push(
      LinkedIn({
        clientId: c.LINKEDIN_CLIENT_ID,
        clientSecret: c.LINKEDIN_CLIENT_SECRET,
        // OpenID Connect: everything else is read from the issuer's discovery document.
        issuer: `${base(c.LINKEDIN_OAUTH_URL)}/oauth`,
        authorization: {
          params: { scope: signInScopes("linkedin", { pages: c.LINKEDIN_PAGES === "on", analytics: c.LINKEDIN_ANALYTICS === "on" }).join(" ") },
        },
      }),
    );
  }
  if (c.X_CLIENT_ID && c.X_CLIENT_SECRET) {
    providers.push(
      Twitter({
        clientId: c.X_CLIENT_ID,
        clientSecret: c.X_CLIENT_SECRET,
        authorization: { url: `${base(c.X_OAUTH_URL)}/i/oauth2/authorize`, params: { scope: signInScopes("x").join(" ") } },
        token: `${base(c.X_API_URL)}/2/oauth2/token`,
        userinfo: `${base(c.X_API_URL)}/2/users/me?user.fields=profile_image_url`,
      }),
    );
  }
  if (c.SMTP_URL) providers.push(Nodemailer({ server: mailServer(c.SMTP_URL), from: c.EMAIL_FROM }));

  return {
    adapter: DrizzleAdapter(await db(), {
      usersTable: users,
      accountsTable: authAccounts,
      sessionsTable: authSessions,
      verificationTokensTable: authVerificationTokens,
    }),
    providers,
    secret: authSecret(),
    logger: authLogger,
    // No trustHost: the URL is pinned above, and without the pin next-auth refuses requests
    // (in production) instead of taking the host from the request.
    session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
    pages: { signIn: "/signin", error: "/signin", verifyRequest: "/signin?sent=1" },
    callbacks: {
      // Where next-auth sends the browser after a sign-in: only a path on this service.
      redirect: ({ url, baseUrl }) => `${baseUrl}${safeReturnUrl(url)}`,
      // Every account needs an e-mail address and X shares none: a new person cannot start
      // with X alone (the insert would fail). Connecting X while signed in is fine.
      signIn: async ({ user, account, email }) => {
        // Asking for an e-mailed link counts like a failed sign-in (per account and address),
        // so nobody can flood a mailbox or this server's mail sender with them.
        if (email?.verificationRequest) {
          return (await takeSignInAttempt(user.email ?? "", clientAddress(await headers()))) || "/signin?confirm=throttled";
        }
        if (account?.type !== "oauth" && account?.type !== "oidc") return true;
        if (user.email || (await auth())?.user) return true;
        return "/signin?error=EmailRequired";
      },
      // The token carries the user id and nothing secret; the password hash never leaves the database.
      jwt: ({ token, user }) => {
        if (user?.id) token.sub = user.id;
        return { sub: token.sub, email: token.email, name: token.name, picture: token.picture };
      },
      // The session exposes exactly id, email, name and image.
      session: ({ session, token }) =>
        ({
          expires: session.expires,
          user: { id: token.sub ?? "", email: token.email ?? "", name: token.name ?? null, image: token.picture ?? null },
        }) as never,
    },
    events: {
      // next-auth only stores a provider's tokens when it links the account the first time;
      // a reconnect must refresh them too (without ever wiping a stored refresh token).
      signIn: async ({ user, account, profile }) => {
        if (account && (account.provider === "linkedin" || account.provider === "twitter")) {
          await storePlatformTokens(await db(), account, profile);
          await syncLinkedInPages(await db(), account.provider, account.providerAccountId);
        }
        // The mailbox's owner opened a sign-in link: a password nobody confirmed goes.
        if (account?.provider === "nodemailer" && user.id) await dropUnconfirmedPassword(await db(), user.id);
      },
    },
  };
}

/**
 * next-auth builds every URL it hands out (e-mailed sign-in links, provider callbacks,
 * redirects) from AUTH_URL when set, and from the request's Host / X-Forwarded-Host
 * otherwise, which a client chooses. So it is always set, from APP_URL, before next-auth
 * reads it (it reads process.env on every request and action, after this configuration).
 */
function pinAuthUrl(origin: string) {
  process.env.AUTH_URL = authBase(origin);
}

function authBase(origin: string) {
  return `${new URL(origin).origin}/api/auth`;
}

/** The redirect URL a network's app registers: where that network's sign-in comes back to (next-auth's callback). */
export const providerCallbackUrl = (provider: "linkedin" | "twitter") => `${authBase(config().origin)}/callback/${provider}`;

export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);

/** Which sign-in methods are configured (for the sign-in and settings pages). */
export function configuredProviders() {
  const c = config();
  return {
    linkedin: Boolean(c.LINKEDIN_CLIENT_ID && c.LINKEDIN_CLIENT_SECRET),
    x: Boolean(c.X_CLIENT_ID && c.X_CLIENT_SECRET),
    email: Boolean(c.SMTP_URL),
  };
}
