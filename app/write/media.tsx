"use client";
import { useId, useRef, useState } from "react";
import { servedAt } from "@/lib/core/media-url";

// The composer's images and PDF: dropped or picked, uploaded at once with a progress bar
// (upload/route.ts, upload_media's rules), reordered, removed and described. The description
// is kept here and given to the file when the draft is saved (describeMedia).

export type Medium = {
  key: string;
  name: string;
  kind: "image" | "pdf";
  /** Set once stored. */
  url?: string;
  alt: string;
  /** A PDF's title as LinkedIn shows it (empty: its file name). */
  title?: string;
  /** 0 to 1 while it uploads. */
  progress?: number;
  error?: string;
};

export type MediaLimits = { images: number; imageBytes: number; pdfBytes: number; pdf: boolean; types: readonly string[] };

/** What survives a reload: only files that were stored. */
export const kept = (list: Medium[] | undefined): Medium[] =>
  (list ?? []).filter((m) => m.url).map(({ key, name, kind, url, alt, title }) => ({ key, name, kind, url, alt, title }));

const MB = 1024 * 1024;

/** Sends one file as upload_media's body; `progress` hears the bytes go out. */
function send(file: File, csrf: string, progress: (f: number) => void): Promise<{ url: string } | { error: string }> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onerror = () => resolve({ error: "This file could not be read." });
    reader.onload = () => {
      const data = String(reader.result).replace(/^data:[^,]*,/, "");
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/write/upload");
      xhr.setRequestHeader("content-type", "application/json");
      xhr.setRequestHeader("x-csrf-token", csrf);
      xhr.upload.onprogress = (e) => e.lengthComputable && progress(e.loaded / e.total);
      xhr.onerror = () => resolve({ error: "The connection failed: add the file again." });
      xhr.onload = () => {
        try {
          const body = JSON.parse(xhr.responseText);
          if (xhr.status === 200) return resolve({ url: body.url });
          const e = body.error;
          const detail = e?.details?.map((d: { message: string }) => d.message).join(". ");
          resolve({ error: [detail || e?.message, e?.hint].filter(Boolean).join(" ") || `Not stored (${xhr.status}).` });
        } catch {
          resolve({ error: xhr.status === 413 ? "This file is too large." : `Not stored (${xhr.status}).` });
        }
      };
      xhr.send(JSON.stringify({ data, content_type: file.type, filename: file.name }));
    };
    reader.readAsDataURL(file);
  });
}

export function MediaPicker({
  label,
  items,
  change,
  limits,
  csrf,
}: {
  /** What the files belong to: "the post", "part 2". */
  label: string;
  items: Medium[];
  change: (f: (items: Medium[]) => Medium[]) => void;
  limits: MediaLimits;
  csrf: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const patch = (key: string, p: Partial<Medium>) => change((list) => list.map((m) => (m.key === key ? { ...m, ...p } : m)));
  const images = items.filter((m) => m.kind === "image");
  const pdf = items.find((m) => m.kind === "pdf");

  const add = (files: FileList | null) => {
    const fresh: { m: Medium; file: File }[] = [];
    let room = limits.images - images.length;
    for (const file of Array.from(files ?? [])) {
      const kind = file.type === "application/pdf" ? "pdf" : "image";
      const m: Medium = { key: `${Date.now()}-${Math.random()}`, name: file.name, kind, alt: "" };
      if (!limits.types.includes(file.type) || (kind === "pdf" && !limits.pdf))
        m.error = `${file.name}: ${limits.pdf ? "a PNG, JPEG, GIF or WebP image, or a PDF" : "a PNG, JPEG, GIF or WebP image"} is needed.`;
      else if (file.size > (kind === "pdf" ? limits.pdfBytes : limits.imageBytes))
        m.error = `${file.name} is larger than ${(kind === "pdf" ? limits.pdfBytes : limits.imageBytes) / MB} MB.`;
      else if (kind === "pdf" && (pdf || images.length || fresh.length)) m.error = `${file.name}: a post carries one PDF or images, not both.`;
      else if (kind === "image" && (pdf || fresh.some((f) => f.m.kind === "pdf"))) m.error = `${file.name}: a post carries one PDF or images, not both.`;
      else if (kind === "image" && room-- <= 0) m.error = `${file.name}: at most ${limits.images} images on ${label}.`;
      else m.progress = 0;
      fresh.push({ m, file });
    }
    change((list) => [...list, ...fresh.map((f) => f.m)]);
    for (const { m, file } of fresh) {
      if (m.error) continue;
      void send(file, csrf, (f) => patch(m.key, { progress: f })).then((r) =>
        patch(m.key, "url" in r ? { url: r.url, progress: undefined } : { error: `${file.name}: ${r.error}`, progress: undefined }),
      );
    }
    if (input.current) input.current.value = "";
  };
  const move = (i: number, by: number) =>
    change((list) => {
      const next = [...list];
      [next[i], next[i + by]] = [next[i + by], next[i]];
      return next;
    });

  return (
    <div className="media-picker">
      <div
        className={over ? "drop-zone over" : "drop-zone"}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add(e.dataTransfer.files);
        }}
      >
        <label htmlFor={`${id}-files`}>{limits.pdf ? `Images or a PDF for ${label}` : `Images for ${label}`}</label>
        <input
          ref={input}
          id={`${id}-files`}
          type="file"
          multiple
          accept={limits.types.filter((t) => limits.pdf || t !== "application/pdf").join(",")}
          onChange={(e) => add(e.target.files)}
        />
        <span className="help">
          Drop files here or choose them: up to {limits.images} images{limits.pdf ? " or one PDF" : ""}.
        </span>
      </div>
      {items.length ? (
        <ol className="media-items" aria-label={`Files for ${label}`}>
          {items.map((m, i) => (
            <li key={m.key} aria-label={m.name}>
              {m.url && m.kind === "image" ? (
                // A plain img: the owner's own upload, served by this app.
                // eslint-disable-next-line @next/next/no-img-element
                <img src={servedAt(m.url)} alt={m.alt || ""} className="thumb" />
              ) : (
                <span className="thumb badge">{m.kind === "pdf" ? "PDF" : "…"}</span>
              )}
              <div className="stack">
                <strong>{m.name}</strong>
                {m.progress !== undefined ? (
                  <progress value={m.progress} max={1} aria-label={`Uploading ${m.name}`}>
                    {Math.round(m.progress * 100)}%
                  </progress>
                ) : null}
                {m.error ? (
                  <p className="field-error" role="alert">
                    {m.error}
                  </p>
                ) : null}
                {m.url && m.kind === "image" ? (
                  <>
                    <label htmlFor={`${id}-alt-${i}`}>Description of {m.name} (alt text)</label>
                    <textarea id={`${id}-alt-${i}`} rows={2} maxLength={1000} value={m.alt} onChange={(e) => patch(m.key, { alt: e.target.value })} />
                    {m.alt.trim() ? null : <span className="help warn">Add a description: people using screen readers hear it instead of the image.</span>}
                  </>
                ) : null}
                {m.url && m.kind === "pdf" ? (
                  <>
                    <label htmlFor={`${id}-title-${i}`}>Title of the document, as LinkedIn shows it</label>
                    <input
                      id={`${id}-title-${i}`}
                      maxLength={200}
                      value={m.title ?? m.name.replace(/\.pdf$/i, "")}
                      onChange={(e) => patch(m.key, { title: e.target.value })}
                    />
                  </>
                ) : null}
                <div className="actions">
                  {i > 0 && m.url ? (
                    <button type="button" className="btn" onClick={() => move(i, -1)} aria-label={`Move ${m.name} earlier`}>
                      Earlier
                    </button>
                  ) : null}
                  {i < items.length - 1 && m.url ? (
                    <button type="button" className="btn" onClick={() => move(i, 1)} aria-label={`Move ${m.name} later`}>
                      Later
                    </button>
                  ) : null}
                  <button type="button" className="btn" onClick={() => change((list) => list.filter((x) => x.key !== m.key))} aria-label={`Remove ${m.name}`}>
                    Remove
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
