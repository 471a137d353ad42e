import { ERROR_DOCS } from "@/lib/transports/discovery/error-docs";
import { ERROR_CODES, ERROR_STATUS } from "@/lib/core/errors";

export const metadata = { title: "Error reference · Contentio API" };

export default function ErrorReference() {
  return (
    <main>
      <h1>Error reference</h1>
      <p>
        Every error is JSON: <code>{`{"error": {"code", "message", "hint"?, "docs", "details"?}}`}</code>. The <code>code</code> is stable; the{" "}
        <code>message</code> says what happened and the <code>hint</code> what to do.
      </p>
      <dl className="errors">
        {ERROR_CODES.map((code) => (
          <div key={code}>
            <dt id={code}>
              <code>{code}</code> <span className="muted">HTTP {ERROR_STATUS[code]}</span>
            </dt>
            <dd>{ERROR_DOCS[code].when}</dd>
            <dd>
              <strong>What to do:</strong> {ERROR_DOCS[code].fix}
            </dd>
          </div>
        ))}
      </dl>
    </main>
  );
}
