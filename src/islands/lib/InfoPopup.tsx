// A small info button whose popup lists details of a table cell (spec §2 Orders and My Account).
// The popup is placed in the viewport, so a sideways-scrolling table cannot clip it.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "react";

export interface InfoPopupProps {
  /** What the popup is about, read out for the button, e.g. "Order details". */
  label: string;
  /** The popup's content. */
  children: ComponentChildren;
}

const POPUP_WIDTH = 260;

export function InfoPopup({ label, children }: InfoPopupProps) {
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  const wrap = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (!at) return;
    const close = () => setAt(null);
    const onPointer = (e: Event) => {
      if (!wrap.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && close();
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    addEventListener("scroll", close, true);
    addEventListener("resize", close);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
      removeEventListener("scroll", close, true);
      removeEventListener("resize", close);
    };
  }, [at]);

  const toggle = (button: HTMLButtonElement) => {
    if (at) return setAt(null);
    const rect = button.getBoundingClientRect();
    const left = Math.max(8, Math.min(rect.left, innerWidth - POPUP_WIDTH - 8));
    setAt({ top: rect.bottom + 4, left });
  };

  return (
    <span class="rs-popup" ref={wrap}>
      <button
        type="button"
        class="rs-info"
        aria-label={label}
        aria-expanded={at !== null}
        onClick={(e) => toggle(e.currentTarget)}
      >
        i
      </button>
      {at && (
        <span
          class="rs-popup-panel"
          role="dialog"
          aria-label={label}
          style={{ top: `${at.top}px`, left: `${at.left}px`, width: `${POPUP_WIDTH}px` }}
        >
          {children}
        </span>
      )}
    </span>
  );
}
