type LinkCard = { source: string; title: string; description: string; image: string | null };

/**
 * A LinkedIn post's link card as it goes out (LinkedIn builds none for a link sent through its
 * API), or why there is none: the page could not be read, or it is read before approval.
 */
export function LinkCardView({ card, note }: { card: LinkCard | null; note: string }) {
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
    </section>
  );
}
