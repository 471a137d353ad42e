/**
 * What the owner's last form action did, from the page's query (?done=... or ?error=...):
 * its success message, or why nothing changed. `failed` explains any error but an expired form.
 */
export function FormOutcome({ done, error, failed }: { done?: string; error?: string; failed?: string }) {
  return (
    <>
      {done ? (
        <p className="ok-box" role="status">
          {done}
        </p>
      ) : null}
      {error === "expired" ? (
        <p className="error-box" role="alert">
          That page had expired, so nothing changed. Try again.
        </p>
      ) : error && failed ? (
        <p className="error-box" role="alert">
          {failed}
        </p>
      ) : null}
    </>
  );
}
