import { config } from "@/lib/core/config";

export const dynamic = "force-dynamic";

export default function Home() {
  const { baseUrl, mcpUrl, origin } = config();
  return (
    <main>
      <h1>Contentio</h1>
      <p>Drafts, schedules and publishes content for your LinkedIn and X accounts, for you and the AI assistants you connect.</p>
      <p>
        <a href="/signin">Sign in</a> · <a href="/signup">Create an account</a> · <a href="/settings/connections">Settings &gt; Connections</a>
      </p>
      <h2>For developers and assistants</h2>
      <ul>
        <li>
          REST API: <code>{baseUrl}</code> (<a href="/api/v1/openapi.json">OpenAPI document</a>)
        </li>
        <li>
          MCP server: <code>{mcpUrl}</code>
        </li>
        <li>
          <a href="/llms.txt">Guide for language models</a> · <a href="/docs/errors">Error reference</a>
        </li>
        <li>
          OAuth issuer: <code>{origin}</code>
        </li>
      </ul>
    </main>
  );
}
