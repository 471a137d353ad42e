import type { listConnectedApps } from "@/lib/domain/accounts/connections";
import { ConfirmButton } from "@/components/confirm-button";
import { SwitchForm } from "@/components/switch-form";
import { abilities, formatDay, relative } from "@/components/format";
import { disconnectApp, toggleAppTrust } from "./actions";

type App = Awaited<ReturnType<typeof listConnectedApps>>[number];
type Props = { apps: App[]; csrf: string; timeZone: string; publishingAllowed: boolean; now: Date };

/**
 * Settings > Connections, AI apps: every connected app, personal tokens among them (made here or
 * by the command line), each with what it can do and Disconnect, or Revoke for a token: the same
 * act, which ends every token of the app on its next call.
 */
export function AppsList({ apps, csrf, timeZone, publishingAllowed, now }: Props) {
  return (
    <ul className="rows" aria-label="Connected apps and tokens">
      {apps.map((a) => (
        <li key={a.id}>
          <div>
            <strong>{a.name}</strong>{" "}
            {a.personal ? (
              <span className="badge net" title="A token you made, here or with the command line.">
                Personal token
              </span>
            ) : a.selfRegistered ? (
              <span className="badge" title="This app registered itself; its name is not verified.">
                Unverified
              </span>
            ) : null}
            <p className="meta">
              {a.redirectHost ? <>Redirects to {a.redirectHost} · </> : null}
              {a.personal ? "Created" : "Connected"} on {formatDay(a.createdAt, timeZone)} · Last used {relative(a.lastUsedAt, now)}
              {a.personal && a.tokenExpiresAt ? (
                <>
                  {" "}
                  · {a.tokenExpiresAt > now ? "Expires" : "Expired"} on {formatDay(a.tokenExpiresAt, timeZone)}
                </>
              ) : null}
            </p>
            <details>
              <summary>What it can do</summary>
              <ul className="can">
                {abilities(a.scopes, publishingAllowed).map((t) => (
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
          {a.personal ? (
            <ConfirmButton
              action={disconnectApp}
              label="Revoke"
              confirm="Revoke"
              hidden={{ appId: a.id, csrf, kind: "token" }}
              question={`Revoke the token “${a.name}”? Whatever uses it is refused from its next call.`}
            />
          ) : (
            <ConfirmButton
              action={disconnectApp}
              label="Disconnect"
              confirm="Disconnect"
              hidden={{ appId: a.id, csrf }}
              question={`Disconnect ${a.name}? It will lose access immediately.`}
            />
          )}
        </li>
      ))}
    </ul>
  );
}
