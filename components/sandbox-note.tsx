import type { DraftType } from "@/lib/domain/networks";
import type { Destination } from "@/lib/adapters/platforms/destination";

/** Where a draft really goes while the sandbox stands in for its network, and how to set the network up. */
export function SandboxNote({ dest, type }: { dest: Destination; type: DraftType }) {
  if (!dest.sandbox || !dest.setupVars) return null;
  const [id, secret] = dest.setupVars;
  return (
    <p className="help sandbox-note" role="note" aria-label="Sandbox">
      This service has no {dest.network} app set up, so {type}s go to its built-in sandbox and stay here. To use a real {dest.network} account, whoever runs the
      service sets <code>{id}</code> and <code>{secret}</code> (see the README); you then connect the account in{" "}
      <a href="/settings/connections">Settings &gt; Connections</a>.
    </p>
  );
}
