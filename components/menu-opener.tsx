"use client";
import { useEffect } from "react";

const WIDE = "(min-width: 641px)";

/**
 * Wide screens show the navigation's "Menu" open. Browsers that style a closed <details>'
 * content (::details-content, owner.css) need nothing; older ones get it opened here.
 */
export function MenuOpener() {
  useEffect(() => {
    if (CSS.supports("selector(::details-content)")) return;
    const menu = document.querySelector<HTMLDetailsElement>("details.nav-menu");
    const wide = window.matchMedia(WIDE);
    const sync = () => menu && (menu.open = wide.matches);
    sync();
    wide.addEventListener("change", sync);
    return () => wide.removeEventListener("change", sync);
  }, []);
  return null;
}
