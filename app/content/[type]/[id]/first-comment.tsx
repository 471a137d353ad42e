import type { ReactNode } from "react";
import { ActionForm, type ActionState } from "@/components/action-form";

type Result = { status: "posting" | "posted" | "failed" | "unknown"; url: string | null; reason: string | null };
type Props = {
  text: string;
  result?: Result;
  /** "post" or "tweet", and where it goes ("on LinkedIn"). */
  what: string;
  where: string;
  /** The form's hidden fields (the CSRF token). */
  retry: ReactNode;
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
};

const reasonOf = (r: Result) => (r.reason ?? "no reason recorded").replace(/\.$/, "");

/**
 * A draft's first comment and what became of it. A failed one can be posted again by the
 * owner (the post is never sent again); an unconfirmed one only after a question, since it
 * may be there already.
 */
export function FirstComment({ text, result, what, where, retry, action }: Props) {
  return (
    <section aria-labelledby="comment-h">
      <h2 id="comment-h">First comment</h2>
      <p className="muted">
        Posted {where} right after the {what}, as {what === "post" ? "a comment on it" : "a reply to it (to a thread's last part)"}.
      </p>
      <div className="post-text">{text}</div>
      {result?.status === "posting" ? <p className="meta">Being posted now.</p> : null}
      {result?.status === "posted" ? (
        <p className="ok-box">
          Posted
          {result.url ? (
            <>
              : <a href={result.url}>see the comment {where}</a>
            </>
          ) : null}
          .
        </p>
      ) : null}
      {result?.status === "failed" ? (
        <div className="error-box">
          <p>
            First comment not posted: {reasonOf(result)}. The {what} itself is published.
          </p>
          <ActionForm action={action} label="Post the first comment again" labelClass="btn primary">
            {retry}
          </ActionForm>
        </div>
      ) : null}
      {result?.status === "unknown" ? (
        <div className="error-box">
          <p>
            The first comment was not confirmed: {reasonOf(result)}. Look for it under the {what} {where} before posting it again.
          </p>
          <ActionForm
            action={action}
            label="Post the first comment again"
            labelClass="btn"
            confirm={{ question: `Post the first comment again? If it is already under the ${what}, it will be there twice.`, label: "Post it again" }}
          >
            {retry}
          </ActionForm>
        </div>
      ) : null}
    </section>
  );
}
