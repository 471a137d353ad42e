import type { ReactNode } from "react";
import { ActionForm, type ActionState } from "@/components/action-form";

type LinkCard = { source: string; title: string; description: string; image: string | null };

/**
 * A LinkedIn post's link card as it goes out (LinkedIn builds none for a link sent through its
 * API), or why there is none: the page could not be read, or it is read before approval. Before
 * the post is scheduled, the owner may change its title and description.
 */
export function LinkCardView({
  card,
  note,
  edit,
}: {
  card: LinkCard | null;
  note: string;
  edit: { action: (prev: ActionState, form: FormData) => Promise<ActionState>; hidden: ReactNode } | null;
}) {
  return (
    <section aria-labelledby="card-h">
      <h2 id="card-h">Link card</h2>
      {card ? (
        <figure className="link-card" aria-label="Link card as LinkedIn shows it">
          {/* eslint-disable-next-line @next/next/no-img-element -- the linked page's own picture, at its own address */}
          {card.image ? <img src={card.image} alt="" width={120} /> : null}
          <figcaption>
            <strong>{card.title}</strong>
            {card.description ? <p className="meta">{card.description}</p> : null}
            <p className="meta">{new URL(card.source).host}</p>
          </figcaption>
        </figure>
      ) : (
        <p className="meta" role="note">
          {note}
        </p>
      )}
      {card && edit ? (
        <ActionForm action={edit.action} label="Save the card" className="stack">
          {edit.hidden}
          <div>
            <label htmlFor="card_title">Card title</label>
            <input id="card_title" name="card_title" type="text" required maxLength={300} defaultValue={card.title} />
          </div>
          <div>
            <label htmlFor="card_description">Card description</label>
            <textarea id="card_description" name="card_description" maxLength={1000} rows={2} defaultValue={card.description} />
          </div>
        </ActionForm>
      ) : null}
    </section>
  );
}
