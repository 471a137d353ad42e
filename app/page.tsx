import Link from "next/link";
import { config } from "@/lib/core/config";
import { signedInUserId } from "@/lib/transports/auth/session";
import { OwnerShell } from "@/components/owner-shell";

export const dynamic = "force-dynamic";

export const metadata = { title: "Contentio" };

/** The front door: where an owner signs in, and where a developer finds the interfaces. */
export default async function Home() {
  const { baseUrl, mcpUrl, origin } = config();
  const signedIn = await signedInUserId();
  return (
    <OwnerShell narrow>
      <h1>Contentio</h1>
      <p>
        Write, schedule and publish for your LinkedIn, X and Bluesky accounts, yourself or through the AI assistants you connect. Nothing goes out without your
        approval of exactly that post.
      </p>
      <div className="actions">
        {signedIn ? (
          <Link className="btn primary" href="/content">
            Go to your content
          </Link>
        ) : (
          <>
            <Link className="btn primary" href="/signin">
              Sign in
            </Link>
            <Link className="btn" href="/signup">
              Create an account
            </Link>
          </>
        )}
      </div>
      <section className="card" aria-labelledby="developers">
        <h2 id="developers">For developers and assistants</h2>
        <dl className="facts">
          <dt>REST API</dt>
          <dd>
            <code>{baseUrl}</code> · <a href="/api/v1/openapi.json">OpenAPI document</a>
          </dd>
          <dt>MCP server</dt>
          <dd>
            <code>{mcpUrl}</code>
          </dd>
          <dt>OAuth issuer</dt>
          <dd>
            <code>{origin}</code>
          </dd>
          <dt>Guides</dt>
          <dd>
            <a href="/llms.txt">Guide for language models</a> · <a href="/docs/errors">Error reference</a>
          </dd>
        </dl>
      </section>
    </OwnerShell>
  );
}
