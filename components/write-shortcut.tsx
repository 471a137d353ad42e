"use client";
import { useEffect } from "react";

/**
 * Alt+N opens the composer from any owner page (the "Write" link says so: aria-keyshortcuts).
 * A modifier, so typing never triggers it (WCAG 2.1.4); the physical key, so a keyboard
 * layout that makes Alt+N a character still opens it.
 */
export function WriteShortcut() {
  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.code !== "KeyN" || e.repeat) return;
      e.preventDefault();
      const link = document.querySelector<HTMLAnchorElement>('a[href="/write"][aria-keyshortcuts]');
      link?.click();
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, []);
  return null;
}
