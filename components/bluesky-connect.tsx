import { ActionForm, type ActionState } from "./action-form";

type Props = { action: (prev: ActionState, form: FormData) => Promise<ActionState>; csrf: string };

/**
 * Settings > Connections: connect a Bluesky account with its handle and an app password made
 * for this service. Bluesky needs no app credentials, so the form is always there; the
 * password goes to the account's own server once and is kept nowhere. Once connected, the
 * account shows in the list above it.
 */
export function BlueskyConnectForm({ action, csrf }: Props) {
  return (
    <ActionForm action={action} className="stack" label="Connect Bluesky" labelClass="btn primary">
      <input type="hidden" name="csrf" value={csrf} />
      <div>
        <label htmlFor="bluesky-handle">Bluesky handle</label>
        <input id="bluesky-handle" name="handle" type="text" required maxLength={253} autoComplete="username" placeholder="alice.bsky.social" />
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
  );
}
