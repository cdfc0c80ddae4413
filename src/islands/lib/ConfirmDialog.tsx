// A modal yes/no question: delete confirmations (spec §4) and the order confirmation (spec §2).
import { useEffect, useRef } from "react";
import type { ComponentChildren } from "preact";

export interface ConfirmDialogProps {
  /** The question, e.g. "Delete game 'PUBG Mobile'?". */
  message: string;
  /** Text of the confirming button. */
  confirmLabel: string;
  /** Disables both buttons while the confirmed action runs. */
  busy?: boolean;
  /** "danger" (red, for deletes) or "primary" (gold). */
  tone?: "danger" | "primary";
  /** Called when the user confirms. */
  onConfirm: () => void;
  /** Called when the user cancels (button or Escape). */
  onCancel: () => void;
  /** What goes between the question and the buttons: an explanation, a field, an error. */
  children?: ComponentChildren;
}

export function ConfirmDialog(
  { message, confirmLabel, busy = false, tone = "danger", onConfirm, onCancel, children }:
    ConfirmDialogProps,
) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      class="panel confirm-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <p>{message}</p>
      {children}
      <div class="confirm-actions">
        <button type="button" class="btn-secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          class={tone === "danger" ? "btn-danger" : "btn"}
          disabled={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
