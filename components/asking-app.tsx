import { OPERATION_WORDS } from "./format";

/**
 * Beside an asking app's name (which the app chose, and a self-registered one may change):
 * whether it registered itself, and where it comes from, which it cannot change.
 */
export function AppOrigin({ app }: { app: { selfRegistered: boolean; appFrom: string | null } }) {
  return (
    <>
      {app.selfRegistered ? (
        <span className="badge" title="This app registered itself; we could not verify who made it.">
          Unverified
        </span>
      ) : null}
      {app.selfRegistered && app.appFrom ? " " : null}
      {app.appFrom ? <span className="muted">from {app.appFrom}</span> : null}
    </>
  );
}

const sentence = (words: string) => words[0].toUpperCase() + words.slice(1) + ".";

/** The first facts of a request, wherever it is shown: who asks, and for which operation (inside a `dl`). */
export function AskedFor({ a }: { a: { appName: string; operation: string; selfRegistered: boolean; appFrom: string | null } }) {
  return (
    <>
      <dt>Asked by</dt>
      <dd>
        {a.appName} <AppOrigin app={a} />
      </dd>
      <dt>Action</dt>
      <dd>
        {/* In words; the operation's name for whoever reads the app's own log. */}
        {sentence(OPERATION_WORDS[a.operation] ?? a.operation)}
        <br />
        <span className="muted">
          Operation <code>{a.operation}</code>
        </span>
      </dd>
    </>
  );
}
