import { ActionForm, type ActionState } from "./action-form";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;
type Props = { signIn: Action; action: Action; csrf: string };

/**
 * Settings > Connections: connect a Bluesky account. First with atproto OAuth: the owner gives
 * the handle and signs in on the account's own server, which sends them back here; no
 * password is typed into this service. Behind "Use an app password instead", the handle and an
 * app password made for this service (the password goes to the account's server once and is
 * kept nowhere). Bluesky needs no app credentials, so both are always there. Once connected,
 * the account shows in the list above.
 */
export function BlueskyConnectForm({ signIn, action, csrf }: Props) {
  return (
    <div className="stack">
      <ActionForm action={signIn} className="stack" label="Connect Bluesky" labelClass="btn primary">
        <input type="hidden" name="csrf" value={csrf} />
        <div>
          <label htmlFor="bluesky-handle">Bluesky handle</label>
          <input
            id="bluesky-handle"
            name="handle"
            type="text"
            required
            maxLength={253}
            autoComplete="username"
            placeholder="alice.bsky.social"
            aria-describedby="bluesky-handle-help"
          />
          <p className="help" id="bluesky-handle-help">
            You sign in on your Bluesky server&apos;s own page and come back here. Disconnecting revokes the access there.
          </p>
        </div>
      </ActionForm>
      <details>
        <summary>Use an app password instead</summary>
        <ActionForm action={action} className="stack" label="Connect with the app password" labelClass="btn">
          <input type="hidden" name="csrf" value={csrf} />
          <div>
            <label htmlFor="bluesky-password-handle">Handle</label>
            <input id="bluesky-password-handle" name="handle" type="text" required maxLength={253} autoComplete="username" placeholder="alice.bsky.social" />
          </div>
          <div>
            <label htmlFor="bluesky-password">App password</label>
            <input id="bluesky-password" name="password" type="password" required maxLength={200} autoComplete="off" aria-describedby="bluesky-password-help" />
            <p className="help" id="bluesky-password-help">
              Make one for this service in Bluesky: Settings &gt; Privacy and security &gt; App passwords. Not your account&apos;s own password: it is refused.
              Revoking the app password in Bluesky disconnects this service.
            </p>
          </div>
        </ActionForm>
      </details>
    </div>
  );
}
