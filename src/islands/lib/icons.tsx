/**
 * Small inline SVG icons. Emoji are not used for icons: a system without an emoji font (Debian's
 * Chromium) draws them as empty boxes. Each icon carries an accessible label unless it is marked
 * decorative, in which case the text beside it says the same thing.
 */
import type { JSX } from "react";

export interface IconProps {
  /** What a screen reader says; omit when the text beside the icon already says it. */
  label?: string;
  /** Edge length in CSS pixels. */
  size?: number;
  class?: string;
}

function Svg(
  { label, size = 16, class: className, children }: IconProps & {
    children: JSX.Element | JSX.Element[];
  },
) {
  return (
    <svg
      class={className ? `icon ${className}` : "icon"}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : "true"}
      focusable="false"
    >
      {label && <title>{label}</title>}
      {children}
    </svg>
  );
}

/** The gem that stands for the word Diamonds (spec §2). */
export function GemIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M6 3h12l4 6-10 12L2 9z" fill="#4fc3f7" />
      <path d="M2 9h20M12 21 8 9l4-6 4 6z" fill="none" stroke="#0277bd" stroke-width="1.2" />
    </Svg>
  );
}

/** A check mark in a circle: verified, launched, successful. */
export function CheckIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="12" cy="12" r="10" fill="#2e7d32" />
      <path
        d="m7 12.5 3.2 3.2L17 9"
        fill="none"
        stroke="#fff"
        stroke-width="2.4"
        stroke-linecap="round"
      />
    </Svg>
  );
}

/** An hourglass: waiting (new orders). */
export function HourglassIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M6 2h12v2l-5 8 5 8v2H6v-2l5-8-5-8z" fill="#f9a825" />
    </Svg>
  );
}

/** The elephant that marks the EliteDias supplier. */
export function ElephantIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path
        d="M3 9.5C3 6.5 5.5 5 9 5h4c4.5 0 8 2.5 8 6.5V19h-3v-3.5h-2V19h-3v-3.5H9V19H6v-6.5c0 1.5 0 4-1 6.5H3c.5-2 .5-4 0-6.5z"
        fill="#90a4ae"
      />
      <path d="M6.5 6.2C8 7 8.5 9 8 11c-1.5.2-2.8-.6-3.3-2" fill="#b0bec5" />
      <circle cx="4.8" cy="8" r="0.9" fill="#263238" />
    </Svg>
  );
}

/** The monkey that marks the MooGold supplier. */
export function MonkeyIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="4.5" cy="11" r="3" fill="#8d6e63" />
      <circle cx="19.5" cy="11" r="3" fill="#8d6e63" />
      <circle cx="12" cy="12" r="8" fill="#8d6e63" />
      <ellipse cx="12" cy="14" rx="5" ry="4.5" fill="#d7ccc8" />
      <circle cx="9.5" cy="10" r="1.1" fill="#3e2723" />
      <circle cx="14.5" cy="10" r="1.1" fill="#3e2723" />
    </Svg>
  );
}

/** Two arrows in a circle: refresh a status. */
export function RefreshIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path
        d="M20 12a8 8 0 1 1-2.3-5.6M20 4v5h-5"
        fill="none"
        stroke="currentColor"
        stroke-width="2.2"
        stroke-linecap="round"
      />
    </Svg>
  );
}

/** A cross in a circle: failed (error and unknown order statuses). */
export function CrossIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="12" cy="12" r="10" fill="#c62828" />
      <path
        d="m8.5 8.5 7 7m0-7-7 7"
        fill="none"
        stroke="#fff"
        stroke-width="2.4"
        stroke-linecap="round"
      />
    </Svg>
  );
}

/** A lightning bolt: double recharge items. */
export function BoltIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M13 2 4 14h7l-1 8 9-12h-7z" fill="#fbc02d" />
    </Svg>
  );
}

/** Two overlapping sheets: copy to the clipboard. */
export function CopyIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect
        x="8"
        y="8"
        width="12"
        height="12"
        rx="2"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
      />
      <path
        d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
      />
    </Svg>
  );
}
