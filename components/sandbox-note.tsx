"use client";
import { useEffect, useState } from "react";

const KEY = "contentio:sandbox-notice";

export type SandboxNetwork = { name: string; type: string; vars: readonly string[] };

/**
 * One short notice while the built-in sandbox stands in for networks without app credentials:
 * what it means in a sentence, the set-up one click away (a disclosure), and a Dismiss this
 * browser remembers. Callers pass only the networks the sandbox stands in for.
 */
export function SandboxNote({ networks }: { networks: SandboxNetwork[] }) {
  const [hidden, setHidden] = useState(false);
  // Read after hydration: the server cannot know what this browser dismissed.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setHidden(localStorage.getItem(KEY) === "dismissed"), []);
  if (!networks.length || hidden) return null;
  const names = networks.map((n) => n.name).join(" and ");
  const what = networks.map((n) => `${n.type}s`).join(" and ");
  return (
    <div className="help sandbox-note" role="note" aria-label="Sandbox mode">
      <p>
        <strong>Sandbox mode:</strong> {names} {networks.length > 1 ? "are" : "is"} not set up, so {what} stay in this service&apos;s sandbox, where only you
        see them.
      </p>
      <details>
        <summary>How to set up {names}</summary>
        <p>
          Whoever runs the service sets{" "}
          {networks.map((n, i) => (
            <span key={n.name}>
              {i ? "; " : ""}
              {networks.length > 1 ? `for ${n.name}, ` : ""}
              <code>{n.vars[0]}</code> and <code>{n.vars[1]}</code>
            </span>
          ))}{" "}
          (see the README); you then connect the account in <a href="/settings/connections">Settings &gt; Connections</a>.
        </p>
      </details>
      <button
        type="button"
        className="btn link"
        onClick={() => {
          localStorage.setItem(KEY, "dismissed");
          setHidden(true);
        }}
      >
        Dismiss
      </button>
    </div>
  );
}
