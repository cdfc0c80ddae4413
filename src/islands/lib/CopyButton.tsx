// A Copy button for a value shown once (a new API key): it puts the value on the clipboard and
// says "Copied" in a live region beside it, so sighted and screen-reader users both hear it.
import { useEffect, useState } from "react";
import { CopyIcon } from "./icons.tsx";

export interface CopyButtonProps {
  /** The text put on the clipboard. */
  text: string;
  /** The button's accessible name, e.g. "Copy key"; it reads "Copy" on screen. */
  label: string;
}

/** How long "Copied" stays after a copy. */
const CONFIRMATION_MS = 4000;

export function CopyButton({ text, label }: CopyButtonProps) {
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);
  useEffect(() => {
    if (outcome !== "copied") return;
    const timer = setTimeout(() => setOutcome(null), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  // A new value (another key) has not been copied yet.
  useEffect(() => setOutcome(null), [text]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome("copied");
    } catch (error) {
      // No clipboard (a page served over plain http, a denied permission): the value stays on
      // screen, selectable with one click.
      console.error(error);
      setOutcome("failed");
    }
  };

  return (
    <span class="copy-button">
      <button type="button" class="btn-secondary" aria-label={label} onClick={copy}>
        <CopyIcon /> Copy
      </button>
      <span role="status" class={outcome === "failed" ? "error" : "copy-done"}>
        {outcome === "copied" && "Copied"}
        {outcome === "failed" && "Could not copy: select it and copy it yourself."}
      </span>
    </span>
  );
}
