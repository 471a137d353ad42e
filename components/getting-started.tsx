import type { Step } from "@/lib/domain/owner/getting-started";
import { setGettingStarted } from "@/app/content/getting-started";

/**
 * The first-run checklist: each step ticks itself (lib/domain/owner/getting-started.ts). On
 * Content it can be put away; under Profile it is always there, with a way to bring it back.
 */
export function GettingStarted({ steps, csrf, page, hidden }: { steps: Step[]; csrf: string; page: "/content" | "/onboarding"; hidden: boolean }) {
  const done = steps.filter((s) => s.done).length;
  return (
    <section className="card getting-started" aria-labelledby="getting-started-h" id="getting-started">
      <h2 id="getting-started-h">Getting started</h2>
      <p className="meta">
        {done === steps.length ? "All done: you have tried everything." : `${done} of ${steps.length} done. Each step ticks itself when you have done it.`}
      </p>
      <ol className="checklist">
        {steps.map((s) => (
          <li key={s.key} className={s.done ? "done" : undefined}>
            <span className="tick" aria-hidden="true">
              {s.done ? "✓" : ""}
            </span>
            <div>
              {s.done ? <strong>{s.label}</strong> : <a href={s.href}>{s.label}</a>} <span className="sr-only">{s.done ? "(done)" : "(not done yet)"}</span>
              <p className="help">{s.help}</p>
            </div>
          </li>
        ))}
      </ol>
      {page === "/content" || hidden ? (
        <form action={setGettingStarted}>
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="page" value={page} />
          <input type="hidden" name="hidden" value={page === "/content" ? "on" : "off"} />
          <button className="btn" type="submit">
            {page === "/content" ? "Put this list away" : "Show it on Content again"}
          </button>
          {page === "/content" ? <span className="help"> You find it again under Profile &amp; voice.</span> : null}
        </form>
      ) : null}
    </section>
  );
}
