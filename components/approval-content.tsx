// What an approval shows of the content: the full text and its image, and for an edit of a
// scheduled draft the current and the proposed version side by side, so the owner approves
// exactly what will go out.

export type Version = { title: string; body: string; imageUrl: string | null };

/** The image that goes with the text; the address is shown too, since it may not load. */
export function AttachedImage({ url, alt }: { url: string; alt: string }) {
  return (
    <figure className="attached-image">
      {/* A plain img: the address is the draft's own, shown as it is, never optimised or fetched by the server. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={url} alt={alt} />
      <figcaption>
        <a href={url}>{url}</a>
      </figcaption>
    </figure>
  );
}

function Part({ label, changed }: { label: string; changed: boolean }) {
  return (
    <h4>
      {label}
      {changed ? (
        <>
          {" "}
          <span className="badge">changed</span>
        </>
      ) : null}
    </h4>
  );
}

function VersionBox({ id, heading, v, other, proposed }: { id: string; heading: string; v: Version; other: Version; proposed?: boolean }) {
  // Only the proposed side marks what differs: the owner reads the change where it is new.
  const changed = (k: keyof Version) => !!proposed && v[k] !== other[k];
  return (
    <section className={proposed ? "proposed" : undefined} aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      <Part label="Title" changed={changed("title")} />
      <p>{v.title}</p>
      <Part label="Text" changed={changed("body")} />
      <div className="post-text">{v.body}</div>
      <Part label="Image" changed={changed("imageUrl")} />
      {v.imageUrl ? <AttachedImage url={v.imageUrl} alt={`Image of the ${heading.toLowerCase()} version`} /> : <p className="muted">No image</p>}
    </section>
  );
}

export function EditComparison({ current, proposed }: { current: Version; proposed: Version }) {
  return (
    <div className="compare">
      <VersionBox id="current-version" heading="Current" v={current} other={proposed} />
      <VersionBox id="proposed-version" heading="Proposed" v={proposed} other={current} proposed />
    </div>
  );
}
