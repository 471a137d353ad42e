import { AppOrigin } from "@/components/asking-app";
import { configuredProviders } from "@/lib/transports/auth";
import { csrfToken, requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { accountHealth } from "@/lib/domain/accounts/health";
import { listConnectedApps, pendingApprovals, platformAccounts } from "@/lib/domain/accounts/connections";
import { ConfirmButton } from "@/components/confirm-button";
import { OPERATION_WORDS, PLATFORM_NAMES, abilities, formatDay, formatInZone, formatTime, relative } from "@/components/format";
import { OwnerShell } from "@/components/owner-shell";
import { SwitchForm } from "@/components/switch-form";
import { notificationSettingsOf } from "@/lib/domain/owner/notifications";
import { config } from "@/lib/core/config";
import { ports } from "@/lib/adapters/ports";
import { checkConnection, connectPlatform, disconnectApp, removePlatform, saveNotifications, toggleAppTrust, togglePublishing } from "./actions";
import { ConnectionCheckForm } from "@/components/connection-check";
import { FormOutcome } from "@/components/form-outcome";
import { destinationBadges } from "@/lib/adapters/platforms/destination";

export const dynamic = "force-dynamic";
export const metadata = { title: "Connections · Contentio" };

const DONE: Record<string, string> = {
  disconnected: "Disconnected. The app lost access immediately.",
  gone: "That app was already disconnected.",
  "account-disconnected": "Account disconnected. Nothing will be published to it.",
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
  const [apps, accounts, pending, health] = await Promise.all([
    listConnectedApps(d, me.id),
    platformAccounts(d, me.id),
    pendingApprovals(d, me.id),
    accountHealth(d, me.id, ports()),
  ]);
  const notify = await notificationSettingsOf(d, me.id);
  const csrf = csrfToken(me.id, "connections");
  const providers = configuredProviders();
  const now = new Date();
  const badge = destinationBadges();
  return (
    <OwnerShell email={me.email} userId={me.id} current="/settings/connections">
      <h1>Connections</h1>
      <FormOutcome done={sp.done ? DONE[sp.done] : undefined} error={sp.error} />

      <section aria-labelledby="apps" className="card">
        <h2 id="apps">AI apps</h2>
        {apps.length === 0 ? (
          <p>
            No AI app is connected. To connect an assistant such as Claude or ChatGPT, add this service&apos;s MCP address in the assistant&apos;s settings; it
            will send you here to approve. See <a href="/llms.txt">the guide</a>.
          </p>
        ) : (
          <ul className="rows">
            {apps.map((a) => (
              <li key={a.id}>
                <div>
                  <strong>{a.name}</strong>{" "}
                  {a.selfRegistered ? (
                    <span className="badge" title="This app registered itself; its name is not verified.">
                      Unverified
                    </span>
                  ) : null}
                  <p className="meta">
                    {a.redirectHost ? <>Redirects to {a.redirectHost} · </> : null}Connected on {formatDay(a.createdAt, me.timezone)} · Last used{" "}
                    {relative(a.lastUsedAt, now)}
                  </p>
                  <details>
                    <summary>What it can do</summary>
                    <ul className="can">
                      {abilities(a.scopes, me.publishingAllowed).map((t) => (
                        <li key={t}>{t}</li>
                      ))}
                    </ul>
                  </details>
                  <SwitchForm
                    action={toggleAppTrust}
                    className="app-trust"
                    id={`trust-${a.id}`}
                    on={a.trustsForms}
                    hidden={{ csrf, appId: a.id, trust: a.trustsForms ? "off" : "on" }}
                    label={<>Let {a.name} confirm actions in its own window</>}
                    help={
                      <>
                        Off: you approve each publish, schedule and delete on this site. On: a &ldquo;Yes&rdquo; in {a.name}&apos;s own window counts as your
                        approval, and a program, not you, could give it.
                      </>
                    }
                  />
                </div>
                <ConfirmButton
                  action={disconnectApp}
                  label="Disconnect"
                  confirm="Disconnect"
                  hidden={{ appId: a.id, csrf }}
                  question={`Disconnect ${a.name}? It will lose access immediately.`}
                />
              </li>
            ))}
          </ul>
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

      <section aria-labelledby="accounts" className="card">
        <h2 id="accounts">Accounts</h2>
        <ul className="rows">
          {accounts.map((acc) => {
            const name = PLATFORM_NAMES[acc.provider];
            const canConnect = acc.provider === "linkedin" ? providers.linkedin : providers.x;
            const h = acc.state === "connected" ? health.find((x) => x.provider === acc.provider) : undefined;
            return (
              <li key={acc.provider}>
                <div>
                  <strong>{name}</strong>
                  <p className="meta">
                    {acc.state === "connected" ? <span className="badge good">Connected{acc.handle ? ` as ${acc.handle}` : ""}</span> : null}
                    {acc.state === "needs_reconnect" ? <span className="badge warn">Needs reconnecting: token expired</span> : null}
                    {acc.state === "not_connected" ? (
                      <>Not connected{canConnect ? "" : ` (posts go to the built-in sandbox until ${name} app credentials are configured)`}</>
                    ) : null}
                  </p>
                  {h?.expiresAt ? (
                    <p className="meta">
                      Access expires {formatInZone(h.expiresAt, me.timezone)} ·{" "}
                      {h.canRefresh ? "renews itself" : `cannot renew itself: reconnect ${name} before then`}
                    </p>
                  ) : null}
                  {h?.missing.length ? (
                    <p className="attention" role="note" aria-label={`${name} permissions`}>
                      <strong>
                        Reconnect {name} to post {h.toPost}.
                      </strong>{" "}
                      This connection was made without the permission {h.missing.join(", ")}; signing in with {name} again grants it.
                    </p>
                  ) : null}
                  {h?.allowance ? (
                    <p className="meta">
                      {name} takes {h.allowance.remaining} more post{h.allowance.remaining === 1 ? "" : "s"} today (until{" "}
                      {formatInZone(new Date(h.allowance.resetsAt), me.timezone)}).
                    </p>
                  ) : null}
                  {h?.notice ? (
                    <p className="attention" role="note" aria-label={`${name} notice`}>
                      {h.notice}
                    </p>
                  ) : null}
                  {h?.expiring && h.until ? (
                    <div className="attention" role="note" aria-label={`${name} connection expiring`}>
                      <p>
                        <strong>
                          {name} can publish only until {formatInZone(h.until, me.timezone)}.
                        </strong>{" "}
                        Reconnect {name} to keep publishing.
                      </p>
                      {h.atRisk.length ? (
                        <>
                          <p>Scheduled after that, these will fail unless you reconnect:</p>
                          <ul>
                            {h.atRisk.map((p) => (
                              <li key={p.id}>
                                <a href={`/content/${h.type}/${p.id}`}>{p.title}</a> ({formatInZone(p.scheduledFor, me.timezone)})
                              </li>
                            ))}
                          </ul>
                        </>
                      ) : (
                        <p>Nothing is scheduled after that.</p>
                      )}
                    </div>
                  ) : null}
                </div>
                <div className="actions">
                  {canConnect && (acc.state !== "connected" || h?.expiring || h?.missing.length) ? (
                    <form action={connectPlatform}>
                      <input type="hidden" name="csrf" value={csrf} />
                      <input type="hidden" name="provider" value={acc.provider} />
                      <button className="btn primary" type="submit">
                        {acc.state === "not_connected" ? "Connect" : "Reconnect"} {name}
                      </button>
                    </form>
                  ) : null}
                  {acc.state !== "not_connected" ? (
                    <ConfirmButton
                      action={removePlatform}
                      label="Disconnect"
                      confirm="Disconnect"
                      hidden={{ provider: acc.provider, csrf }}
                      question={`Disconnect ${name}? Scheduled items for it will fail until you connect it again.`}
                    />
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        {providers.linkedin || providers.x ? <ConnectionCheckForm action={checkConnection} csrf={csrf} timeZone={me.timezone} /> : null}
      </section>

      <section aria-labelledby="mail" className="card">
        <h2 id="mail">E-mail notifications</h2>
        {config().SMTP_URL ? (
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
