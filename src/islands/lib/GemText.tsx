// Spec §3: the word Diamonds is displayed as a gem symbol, drawn as an inline SVG (no emoji font
// is needed) and read out as "Diamonds".
import { Fragment } from "preact";
import { GemIcon } from "./icons.tsx";

export interface GemTextProps {
  /** The text, e.g. "86 Diamonds"; other words are shown as they are. */
  text: string;
}

/** `text` with each whole word "Diamonds" replaced by the gem icon. */
export function GemText({ text }: GemTextProps) {
  const parts = text.split(/\bDiamonds\b/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <GemIcon label="Diamonds" class="gem" />}
        </Fragment>
      ))}
    </>
  );
}
