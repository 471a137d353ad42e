"use client";
import { useEffect, useRef } from "react";

const QUESTION = "Leave this page? The text you typed is not saved.";

/**
 * Asks before the owner leaves a page while `dirty()` says something typed is unsaved: the
 * browser's own question for a reload, a closed tab or a typed address, and a confirm() for a
 * link of the page, since the app's client-side links never unload it.
 */
export function useUnsavedGuard(dirty: () => boolean) {
  const check = useRef(dirty);
  useEffect(() => {
    check.current = dirty;
  });
  useEffect(() => {
    let leaving = false;
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (leaving || !check.current()) return;
      e.preventDefault();
      e.returnValue = ""; // browsers that ask only when it is set
    };
    const click = (e: MouseEvent) => {
      const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (!(a instanceof HTMLAnchorElement) || a.target === "_blank" || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      if (a.getAttribute("href")?.startsWith("#") || !check.current()) return;
      if (window.confirm(QUESTION)) {
        leaving = true; // asked once: the page's unload does not ask again
        return;
      }
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, []);
}
