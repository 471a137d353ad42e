import type { ReactNode } from "react";
import { CopyField } from "@/components/copy-button";

type Network = "linkedin" | "x";

// What a network's app needs, in the words of each developer portal (docs/platforms.md says
// what is sent and why). The redirect URL is next-auth's callback for the provider, on APP_URL.
const PORTAL: Record<Network, { name: string; vars: [string, string]; portal: { href: string; text: string }; steps: ReactNode[] }> = {
  linkedin: {
    name: "LinkedIn",
    vars: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"],
    portal: { href: "https://www.linkedin.com/developers/apps", text: "LinkedIn Developers" },
    steps: [
      <>
        Under <strong>Products</strong>, add &ldquo;Sign In with LinkedIn using OpenID Connect&rdquo; and &ldquo;Share on LinkedIn&rdquo;.
      </>,
      <>
        Under <strong>Auth</strong>, add the redirect URL below to &ldquo;Authorized redirect URLs for your app&rdquo;, and copy the Client ID and the Primary
        Client Secret.
      </>,
    ],
  },
  x: {
    name: "X",
    vars: ["X_CLIENT_ID", "X_CLIENT_SECRET"],
    portal: { href: "https://developer.x.com/en/portal/dashboard", text: "the X Developer Portal" },
    steps: [
      <>
        In the app&apos;s <strong>User authentication settings</strong>: OAuth 2.0, type &ldquo;Web App, Automated App or Bot&rdquo;, permissions &ldquo;Read
        and write&rdquo;, the redirect URL below as its Callback URI, and this service&apos;s address as its Website URL.
      </>,
      <>
        Under <strong>Keys and tokens</strong>, copy the OAuth 2.0 Client ID and Client Secret (not the API key).
      </>,
    ],
  },
};

/**
 * A network without app credentials: what whoever runs the service does to connect real
 * accounts. Until then the built-in sandbox stands in, and nothing reaches the network.
 */
export function SetupChecklist({ network, callbackUrl, origin }: { network: Network; callbackUrl: string; origin: string }) {
  const p = PORTAL[network];
  const [id, secret] = p.vars;
  return (
    <div className="setup" role="group" aria-labelledby={`setup-${network}`}>
      <h4 id={`setup-${network}`}>Set up {p.name}</h4>
      <ol className="steps">
        <li>
          Create an app in{" "}
          <a href={p.portal.href} rel="noopener noreferrer" target="_blank">
            {p.portal.text}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          .
        </li>
        {p.steps.map((s, i) => (
          <li key={i}>{s}</li>
        ))}
        <li>
          <CopyField id={`callback-${network}`} label={`Redirect URL to register with ${p.name}`} value={callbackUrl} what={`the ${p.name} redirect URL`} />
        </li>
        <li>
          Set <code>{id}</code> and <code>{secret}</code> in the service&apos;s environment (for Docker Compose, its <code>.env</code>) and restart it. Then
          &ldquo;Connect {p.name}&rdquo; appears here.
        </li>
      </ol>
      <p className="help">
        The redirect URL follows <code>APP_URL</code> (now <code>{origin}</code>): change one and register the other again. Meanwhile{" "}
        {network === "x" ? "tweets" : "posts"} go to the built-in sandbox and stay here. More in the project&apos;s <code>docs/platforms.md</code> and{" "}
        <code>docs/configuration.md</code>.
      </p>
    </div>
  );
}
