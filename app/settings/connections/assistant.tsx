import { CopyField } from "@/components/copy-button";
import { originIsLoopback } from "@/lib/core/address-policy.mjs";

/**
 * Settings > Connections: how to connect an assistant. Each client only needs the MCP URL; it
 * registers itself and sends the owner to this service's consent page on connecting (OAuth).
 */
export function AssistantCard({ mcpUrl }: { mcpUrl: string }) {
  const local = originIsLoopback(mcpUrl);
  const plain = new URL(mcpUrl).protocol === "http:";
  const vscode = JSON.stringify({ servers: { contentio: { type: "http", url: mcpUrl } } });
  const cursor = JSON.stringify({ mcpServers: { contentio: { url: mcpUrl } } });
  return (
    <section aria-labelledby="assistant" className="card wrap-code">
      <h2 id="assistant">Connect an assistant</h2>
      <p>
        Assistants connect over MCP at this address. On connecting, the assistant sends you to a page here to allow it; it then appears under AI apps, where you
        can disconnect it.
      </p>
      <CopyField id="mcp-url" label="MCP server URL" value={mcpUrl} what="the MCP server URL" />
      {local || plain ? (
        <p className="help" role="note">
          {local
            ? "This address works only on this machine. Claude and ChatGPT connect from the internet: " +
              "they need the service at a public https address (APP_URL)."
            : "Claude and ChatGPT connect only to an https address: set APP_URL to one."}
        </p>
      ) : null}
      <ul className="steps">
        <li>
          <strong>Claude</strong> (claude.ai, Claude Desktop): Settings &gt; Connectors &gt; Add custom connector, paste the URL, then Connect.
        </li>
        <li>
          <strong>ChatGPT</strong>: Settings &gt; Apps &gt; Advanced settings, turn on Developer mode; then Create app, paste the URL as the MCP server URL,
          with OAuth as authentication.
        </li>
        <li>
          <strong>VS Code</strong> (Copilot agent mode): Command Palette &gt; &ldquo;MCP: Add Server&rdquo; &gt; HTTP, paste the URL; or in{" "}
          <code>.vscode/mcp.json</code>: <code>{vscode}</code>
        </li>
        <li>
          <strong>Cursor</strong>: in <code>~/.cursor/mcp.json</code>: <code>{cursor}</code>, then Connect in Cursor Settings &gt; MCP.
        </li>
      </ul>
      <p className="help">
        Publishing, scheduling and deleting always wait for your approval here. A program that cannot sign in through a browser can use a personal token instead
        (below).
      </p>
    </section>
  );
}
