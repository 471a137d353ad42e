import { AppOrigin } from "@/components/asking-app";
import { configuredProviders, providerCallbackUrl } from "@/lib/transports/auth";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { accountHealth } from "@/lib/domain/accounts/health";
import { listConnectedApps, pendingApprovals } from "@/lib/domain/accounts/connections";
import { listAccounts } from "@/lib/domain/accounts/accounts";
import { AccountsList } from "./accounts";
import { xMonths } from "@/lib/domain/spend/x-spend";
import { OPERATION_WORDS, formatTime } from "@/components/format";
import { OwnerShell } from "@/components/owner-shell";
import { SwitchForm } from "@/components/switch-form";
import { notificationSettingsOf } from "@/lib/domain/owner/notifications";
import { config } from "@/lib/core/config";
import { ports } from "@/lib/adapters/ports";
import { checkConnection, createToken, saveNotifications, togglePublishing } from "./actions";
import { AppsList } from "./apps";
import { AssistantCard } from "./assistant";
import { SetupChecklist } from "./setup";
import { TokenForm } from "@/components/token-form";
import { PERSONAL_TOKEN_CHOICES, PERSONAL_TOKEN_DAYS } from "@/lib/domain/apps/personal-tokens";
import { ConnectionCheckForm } from "@/components/connection-check";
import { FormOutcome } from "@/components/form-outcome";
import { destinationBadges } from "@/lib/adapters/platforms/destination";
import { BlueskyConnectForm } from "@/components/bluesky-connect";
import { connectBluesky, startBlueskySignIn } from "./bluesky";

export const dynamic = "force-dynamic";
export const metadata = { title: "Connections · Contentio" };

const DONE: Record<string, string> = {
  disconnected: "Disconnected. The app lost access immediately.",
  gone: "That app was already disconnected.",
  bluesky: "Bluesky account connected. Drafts for it post through the session Bluesky gave this service.",
  "account-disconnected": "Account disconnected. Nothing will be published to it; posts scheduled to it are drafts again.",
  "cap-set": "Monthly cap on X saved. Posts and metrics reads that would pass it are refused before anything is sent to X.",
  "cap-refused": "The monthly cap was not saved: give an amount in dollars (0 to 100000), or leave it empty for no cap.",
  "account-gone": "That account was already disconnected.",
  revoked: "Token revoked. Whatever used it is refused from its next call.",
  default: "Default account changed. Drafts without an account of their own go there from now on.",
  notifications: "E-mail settings saved.",
};

const NOTIFY: [keyof Awaited<ReturnType<typeof notificationSettingsOf>>, string][] = [
  ["failed", "A post or tweet failed to publish"],
  ["unknown", "A platform did not confirm whether a post went out"],
  ["approval", "An app asks for your approval (with the link)"],
  ["expiring", "A LinkedIn or X connection expires within 7 days"],
];

export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const me = await requireOwner("/settings/connections", { complete: true });
  const d = await db();
  const [apps, accounts, pending, health, onX] = await Promise.all([
    listConnectedApps(d, me.id),
    listAccounts(d, me.id),
    pendingApprovals(d, me.id),
    accountHealth(d, me.id, ports()),
    xMonths(d, me.id, new Date()),
  ]);
  const notify = await notificationSettingsOf(d, me.id);
  const csrf = csrfToken(me.id, "connections");
  const providers = configuredProviders();
  const now = new Date();
  const badge = destinationBadges();
  const c = config();
  return (
    <OwnerShell email={me.email} userId={me.id} current="/settings/connections">
      <h1>Connections</h1>
      <FormOutcome done={sp.done ? DONE[sp.done] : undefined} error={sp.error} />

      <section aria-labelledby="apps" className="card">
        <h2 id="apps">AI apps</h2>
        {apps.length === 0 ? (
          <p>
            No AI app is connected. To connect an assistant such as Claude or ChatGPT, follow <a href="#assistant">Connect an assistant</a>; for a program of
            your own, <a href="#tokens">create a personal API token</a>.
          </p>
        ) : (
          <AppsList apps={apps} csrf={csrf} timeZone={me.timezone} publishingAllowed={me.publishingAllowed} now={now} />
        )}
        <SwitchForm
          action={togglePublishing}
          className="card"
          id="publish"
          on={me.publishingAllowed}
          hidden={{ csrf, allow: me.publishingAllowed ? "off" : "on" }}
          label="Allow connected apps to publish, schedule and delete"
          help="Each action still needs your approval."
        />
      </section>

      <AssistantCard mcpUrl={c.mcpUrl} />

      <section aria-labelledby="tokens" className="card wrap-code">
        <h2 id="tokens">Personal API tokens</h2>
        <p>
          For a script or a program of your own that calls the REST API (<code>POST {c.baseUrl}/&#123;operation&#125;</code>) or MCP with a bearer token. A
          token acts as you, like a connected app: it is listed under AI apps, where you revoke it. Only a fingerprint of it is stored, so it is shown once.
        </p>
        <TokenForm
          action={createToken}
          csrf={csrf}
          days={PERSONAL_TOKEN_CHOICES}
          defaultDays={PERSONAL_TOKEN_DAYS}
          timeZone={me.timezone}
          baseUrl={c.baseUrl}
        />
      </section>

      <section aria-labelledby="accounts" className="card">
        <h2 id="accounts">Accounts</h2>
        {providers.linkedin || providers.x ? (
          <p className="meta">
            Drafts go to their network&apos;s default account unless another is chosen for them. To add another account, sign in to it on the network first (or
            sign out there), then press &ldquo;Add another&rdquo;: the account the network signs you in with is the one added.
          </p>
        ) : null}
        <AccountsList
          accounts={accounts}
          health={health}
          onX={onX}
          providers={providers}
          csrf={csrf}
          timeZone={me.timezone}
          setup={{
            linkedin: <SetupChecklist network="linkedin" callbackUrl={providerCallbackUrl("linkedin")} origin={c.origin} />,
            twitter: <SetupChecklist network="x" callbackUrl={providerCallbackUrl("twitter")} origin={c.origin} />,
            bluesky: <BlueskyConnectForm signIn={startBlueskySignIn} action={connectBluesky} csrf={csrf} />,
          }}
        />
        {providers.linkedin || providers.x || accounts.some((a) => a.network === "bluesky") ? (
          <ConnectionCheckForm action={checkConnection} csrf={csrf} timeZone={me.timezone} />
        ) : null}
      </section>

      <section aria-labelledby="mail" className="card">
        <h2 id="mail">E-mail notifications</h2>
        {c.SMTP_URL ? (
          <form action={saveNotifications} className="stack">
            <input type="hidden" name="csrf" value={csrf} />
            <fieldset>
              <legend>E-mail me when</legend>
              {NOTIFY.map(([k, text]) => (
                <div key={k} className="check">
                  <input type="checkbox" id={`notify-${k}`} name={k} defaultChecked={notify[k]} /> <label htmlFor={`notify-${k}`}>{text}</label>
                </div>
              ))}
            </fieldset>
            <button className="btn" type="submit">
              Save e-mail settings
            </button>
          </form>
        ) : (
          <p className="muted">
            This service has no e-mail server configured (SMTP_URL), so it sends no notifications. Everything that needs you still shows in the Needs attention
            banner.
          </p>
        )}
      </section>

      <section aria-labelledby="waiting" className="card">
        <h2 id="waiting">Waiting for your approval</h2>
        {pending.length ? (
          <p>
            <a href="/approvals">Open the approvals inbox</a> to see each request with its preview.
          </p>
        ) : null}
        {pending.length === 0 ? (
          <p className="muted">Nothing is waiting. When an app asks to publish, schedule or delete, the request appears here.</p>
        ) : (
          <ul className="rows">
            {pending.map((p) => (
              <li key={p.id}>
                <div>
                  <a href={`/confirm/${p.id}`}>
                    {p.appName} wants to {OPERATION_WORDS[p.operation] ?? p.operation}: “{p.action.title}”
                  </a>
                  <p className="meta">
                    <AppOrigin app={p} /> {p.selfRegistered || p.appFrom ? "· " : null}
                    {badge[p.action.type] ?? p.action.type} · expires at {formatTime(p.expiresAt, me.timezone)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </OwnerShell>
  );
}
