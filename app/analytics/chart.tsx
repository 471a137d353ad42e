import type { ReactNode } from "react";

/** A chart with its heading, a sentence, and its numbers as a table for screen readers. */
export function Chart({
  id,
  title,
  summary,
  head,
  rows,
  children,
}: {
  id: string;
  title: string;
  summary: ReactNode;
  head: [string, string];
  rows: [string, string | number][];
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p>{summary}</p>
      {children}
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{head[0]}</th>
            <th scope="col">{head[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
