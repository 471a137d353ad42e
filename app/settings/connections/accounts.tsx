import type { ReactNode } from "react";
import type { AccountView } from "@/lib/domain/accounts/accounts";
import type { accountHealth } from "@/lib/domain/accounts/health";
import { NETWORKS } from "@/lib/domain/networks";
import { ConfirmButton } from "@/components/confirm-button";
import { PLATFORM_NAMES, formatInZone } from "@/components/format";
import { connectPlatform, makeDefault, removeAccount, setMonthlyCap } from "./actions";
import { dollars, MICROS } from "@/lib/domain/networks/x/pricing";

type Health = Awaited<ReturnType<typeof accountHealth>>[number];
type Props = {
  accounts: AccountView[];
  health: Health[];
  /** X accounts: this month's estimate and the owner's cap (micro-dollars), by account id. */
  onX: Map<string, { spent: number; cap: number | null }>;
  providers: { linkedin: boolean; x: boolean };
  csrf: string;
  timeZone: string;
  /** For a network without app credentials: how to set it up (setup.tsx), by provider; for one signed in to with an app password, its form. */
  setup: Partial<Record<string, ReactNode>>;
};

/** What the connection an account posts with needs: renewing soon, missing permissions, today's cap, a notice. */
function HealthNotes({ h, name, timeZone }: { h: Health; name: string; timeZone: string }) {
  return (
    <>
      {h.expiresAt ? (
        <p className="meta">
          Access expires {formatInZone(h.expiresAt, timeZone)} · {h.canRefresh ? "renews itself" : `cannot renew itself: reconnect ${name} before then`}
        </p>
      ) : null}
      {h.missing.length ? (
        <p className="attention" role="note" aria-label={`${name} permissions`}>
          <strong>
            Reconnect {name} to post {h.toPost}.
          </strong>{" "}
          This connection was made without the permission {h.missing.join(", ")}; signing in with {name} again grants it.
        </p>
      ) : null}
      {h.allowance ? (
        <p className="meta">
          {name} takes {h.allowance.remaining} more post{h.allowance.remaining === 1 ? "" : "s"} today (until{" "}
          {formatInZone(new Date(h.allowance.resetsAt), timeZone)}).
        </p>
      ) : null}
      {h.notice ? (
        <p className="attention" role="note" aria-label={`${name} notice`}>
          {h.notice}
        </p>
      ) : null}
      {h.expiring && h.until ? (
        <div className="attention" role="note" aria-label={`${name} connection expiring`}>
          <p>
            <strong>
              {name} can publish only until {formatInZone(h.until, timeZone)}.
            </strong>{" "}
            Reconnect {name} to keep publishing.
          </p>
          {h.atRisk.length ? (
            <>
              <p>Scheduled after that, these will fail unless you reconnect:</p>
              <ul>
                {h.atRisk.map((p) => (
                  <li key={p.id}>
                    <a href={`/content/${h.type}/${p.id}`}>{p.title}</a> ({formatInZone(p.scheduledFor, timeZone)})
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>Nothing is scheduled after that.</p>
          )}
        </div>
      ) : null}
    </>
  );
}

function ConnectButton({ provider, csrf, label, primary }: { provider: string; csrf: string; label: string; primary?: boolean }) {
  return (
    <form action={connectPlatform}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="provider" value={provider} />
      <button className={primary ? "btn primary" : "btn"} type="submit">
        {label}
      </button>
    </form>
  );
}

/** An X account's estimate this month and the owner's cap on it (change_account, set_monthly_cap). */
function MonthlyCap({ id, who, x, csrf }: { id: string; who: string; x: { spent: number; cap: number | null }; csrf: string }) {
  return (
    <form action={setMonthlyCap} className="meta">
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="accountId" value={id} />
      About {dollars(x.spent)} on X this month{x.cap === null ? ", no cap" : ` of a ${dollars(x.cap)} cap`}.{" "}
      <label htmlFor={`cap-${id}`}>Monthly cap on X ($)</label>{" "}
      <input id={`cap-${id}`} name="cap" type="number" min="0" max="100000" step="0.01" defaultValue={x.cap === null ? "" : x.cap / MICROS} />{" "}
      <button className="btn" type="submit" aria-label={`Save cap: the monthly cap on X of ${who}`}>
        Save cap
      </button>
    </form>
  );
}

/**
 * Settings > Connections, Accounts: each network's accounts (the default first), each with
 * the state of its connection, "Make default" and "Disconnect"; "Connect" or "Add another".
 */
export function AccountsList({ accounts, health, onX, providers, csrf, timeZone, setup }: Props) {
  return (
    <>
      {NETWORKS.map(({ id, provider, signIn }) => {
        const name = PLATFORM_NAMES[provider];
        // Signing in with a network's OAuth needs its app credentials; an app password (Bluesky) is set up by its own form (`setup`).
        const canConnect = provider === "linkedin" ? providers.linkedin : provider === "twitter" && providers.x;
        const mine = accounts.filter((a) => a.network === id);
        return (
          <div key={id} className="network-accounts">
            <h3>{name}</h3>
            {mine.length === 0 ? (
              <p className="meta">
                Not connected{canConnect || signIn.kind !== "oauth" ? "" : ` (posts go to the built-in sandbox until ${name} app credentials are configured)`}
              </p>
            ) : (
              <ul className="rows" aria-label={`${name} accounts`}>
                {mine.map((a) => {
                  const h = a.state === "connected" ? health.find((x) => x.accountId === a.account_id) : undefined;
                  const who = a.sandbox ? "Sandbox" : (a.name ?? a.handle ?? name);
                  return (
                    <li key={a.account_id}>
                      <div>
                        <strong>{who}</strong>
                        {a.handle && a.handle !== who ? <> {a.handle}</> : null}
                        {a.sandbox ? (
                          <p className="meta">
                            Stands in for {name} until its app credentials are configured: posts stay in this service, with a queue of their own.
                          </p>
                        ) : null}
                        <p className="meta">
                          {a.sandbox ? <span className="badge net">Sandbox</span> : null}
                          {a.kind === "organization" ? <span className="badge net">Company page</span> : null}{" "}
                          {a.default ? <span className="badge net">Default</span> : null}{" "}
                          {a.state === "connected" ? (
                            <span className="badge good">Connected</span>
                          ) : (
                            <span className="badge warn">Needs reconnecting: token expired</span>
                          )}
                        </p>
                        {h ? <HealthNotes h={h} name={name} timeZone={timeZone} /> : null}
                        {onX.has(a.account_id) ? <MonthlyCap id={a.account_id} who={who} x={onX.get(a.account_id)!} csrf={csrf} /> : null}
                      </div>
                      <div className="actions">
                        {canConnect && a.kind === "person" && (a.state !== "connected" || h?.expiring || h?.missing.length) ? (
                          <ConnectButton provider={provider} csrf={csrf} label={`Reconnect ${name}`} primary />
                        ) : null}
                        {a.default ? null : (
                          <form action={makeDefault}>
                            <input type="hidden" name="csrf" value={csrf} />
                            <input type="hidden" name="accountId" value={a.account_id} />
                            <button className="btn" type="submit" aria-label={`Make default: ${who} as the ${name} account`}>
                              Make default
                            </button>
                          </form>
                        )}
                        {a.sandbox ? null : (
                          <ConfirmButton
                            action={removeAccount}
                            label="Disconnect"
                            confirm="Disconnect"
                            hidden={{ accountId: a.account_id, csrf }}
                            question={`Disconnect ${who} from ${name}? Posts scheduled to it become drafts again; nothing is posted to it.`}
                          />
                        )}
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
            {canConnect ? (
              <ConnectButton provider={provider} csrf={csrf} label={mine.length ? `Add another ${name} account` : `Connect ${name}`} primary={!mine.length} />
            ) : (
              setup[provider]
            )}
          </div>
        );
      })}
    </>
  );
}
