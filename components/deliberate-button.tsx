"use client";
import { useEffect, useRef, useState, useSyncExternalStore, type ButtonHTMLAttributes } from "react";

// Double-clickjacking: a site the owner visits asks for a double-click and, on the first one,
// opens this page in a window of its own, so that the second click lands on Approve or Allow
// (frame-ancestors stops frames, not windows). A button that grants something counts a click
// only after the owner has been on this page, in front, for ARM_MS since their first movement,
// touch or key press here; leaving it (another window or tab) starts that over. A click
// before then arms the button and says so: pressing it again confirms (which is also the way
// for assistive technology that clicks without moving a pointer).
// Without JavaScript the button stays disabled: the grant cannot be made blind.

const ARM_MS = 500;
const never = () => () => {};
/** False in the server's HTML and while hydrating, true once this button's script runs. */
const useHydrated = () =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );

export function DeliberateButton({ onClick, disabled, ...props }: ButtonHTMLAttributes<HTMLButtonElement>) {
  const hydrated = useHydrated();
  const [armed, setArmed] = useState(false);
  const [early, setEarly] = useState(false);
  const arm = useRef<() => void>(() => {});

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      if (timer !== undefined || document.visibilityState !== "visible" || !document.hasFocus()) return;
      timer = setTimeout(() => setArmed(true), ARM_MS);
    };
    const stop = () => {
      clearTimeout(timer);
      timer = undefined;
      setArmed(false);
    };
    const hidden = () => document.visibilityState !== "visible" && stop();
    arm.current = start;
    const moves = ["pointermove", "pointerdown", "keydown"] as const;
    for (const m of moves) window.addEventListener(m, start, true);
    window.addEventListener("blur", stop);
    document.addEventListener("visibilitychange", hidden);
    return () => {
      clearTimeout(timer);
      for (const m of moves) window.removeEventListener(m, start, true);
      window.removeEventListener("blur", stop);
      document.removeEventListener("visibilitychange", hidden);
    };
  }, []);

  return (
    <>
      <button
        {...props}
        disabled={disabled || !hydrated}
        data-armed={armed}
        onClick={(e) => {
          if (!armed) {
            e.preventDefault();
            setEarly(true);
            arm.current();
            return;
          }
          onClick?.(e);
        }}
      />
      {early && !armed ? (
        <span className="deliberate-hint" role="status">
          Press it again to confirm.
        </span>
      ) : null}
    </>
  );
}
