"use client";
import { useState } from "react";

/** LinkedIn's fold: the first lines, then "…see more" that shows the rest in place. */
export function SeeMore({ head, full }: { head: string; full: string }) {
  const [open, setOpen] = useState(false);
  if (open) return <div className="li-text">{full}</div>;
  return (
    <div className="li-text">
      {head}
      <button type="button" className="see-more" aria-expanded={false} onClick={() => setOpen(true)}>
        …see more
      </button>
    </div>
  );
}
