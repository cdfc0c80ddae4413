// Spec §2 Resellers list: the plus popover ('Amount to Top Up', Top Up) and the minus popover
// ('Amount to Deduct', Deduct) of a balance. Each opening gets a fresh Idempotency-Key, so a
// double click or a retried request moves the balance once.
import { useLayoutEffect, useRef, useState } from "react";
import type { BalanceMoveResult } from "../../../shared/user-types.ts";
import { callApi } from "../../lib/api.ts";
import { failureText } from "../games/draft.ts";

export interface BalancePopoverProps {
  /** The reseller whose balance moves. */
  resellerId: string;
  /** The reseller's name, for the buttons' accessible names. */
  resellerName: string;
  /** Which popover: plus (top_up) or minus (deduct). */
  kind: "top_up" | "deduct";
  /** Called with the server's answer after a successful move. */
  onMoved: (result: BalanceMoveResult) => void;
  /** Called as a move is sent: an earlier move's banner is no longer news. */
  onSend: () => void;
}

const TEXTS = {
  top_up: { sign: "+", label: "Amount to Top Up", button: "Top Up", path: "balance_topup" },
  deduct: { sign: "−", label: "Amount to Deduct", button: "Deduct", path: "balance_deduct" },
} as const;

const POPOVER_WIDTH_PX = 224;
/** Space kept between the box and the window's edges, and between the box and its row. */
const MARGIN_PX = 8;

/**
 * Where the amount box goes, in window coordinates: just under the row of its buttons, or just
 * over it when the window has no room below, so it never covers the row's name; its right edge
 * under the buttons', never past the window's sides.
 */
function placePopover(
  row: { top: number; bottom: number },
  buttonsRight: number,
  box: { width: number; height: number },
  view: { width: number; height: number },
): { top: number; left: number } {
  const below = row.bottom + MARGIN_PX;
  const above = row.top - MARGIN_PX - box.height;
  const fitsBelow = below + box.height <= view.height - MARGIN_PX;
  return {
    top: fitsBelow || above < MARGIN_PX ? below : above,
    left: Math.max(
      MARGIN_PX,
      Math.min(buttonsRight - box.width, view.width - box.width - MARGIN_PX),
    ),
  };
}

export function BalancePopover(
  { resellerId, resellerName, kind, onMoved, onSend }: BalancePopoverProps,
) {
  const texts = TEXTS[kind];
  const [key, setKey] = useState<string | null>(null);
  const [amount, setAmount] = useState("");
  const [busy, setBusy] = useState(false);
  const anchor = useRef<HTMLSpanElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);

  const toggle = () => {
    setAmount("");
    setKey(key === null ? crypto.randomUUID() : null);
  };

  // The box is fixed to the window, so the table's scroll box cannot clip it; it is placed before
  // the first paint and follows its row when the page or the table scrolls or the window resizes.
  // Its field takes focus without scrolling anything, so the row stays where it was.
  useLayoutEffect(() => {
    if (key === null) return;
    const place = () => {
      const box = popover.current;
      const buttons = anchor.current;
      if (!box || !buttons) return;
      const root = document.documentElement;
      const at = placePopover(
        (buttons.closest("tr") ?? buttons).getBoundingClientRect(),
        buttons.getBoundingClientRect().right,
        { width: box.offsetWidth, height: box.offsetHeight },
        { width: root.clientWidth, height: root.clientHeight },
      );
      box.style.top = `${at.top}px`;
      box.style.left = `${at.left}px`;
    };
    place();
    field.current?.focus({ preventScroll: true });
    const close = (event: MouseEvent) => {
      if (!anchor.current?.contains(event.target as Node)) setKey(null);
    };
    document.addEventListener("mousedown", close);
    globalThis.addEventListener("resize", place);
    document.addEventListener("scroll", place, true);
    return () => {
      document.removeEventListener("mousedown", close);
      globalThis.removeEventListener("resize", place);
      document.removeEventListener("scroll", place, true);
    };
  }, [key]);

  const submit = async () => {
    if (!amount || busy || key === null) return;
    setBusy(true);
    onSend();
    try {
      const result = await callApi<BalanceMoveResult>(
        "POST",
        `/api/${texts.path}/reseller/${encodeURIComponent(resellerId)}`,
        { amount: Number(amount) },
        { "Idempotency-Key": key },
      );
      setKey(null);
      onMoved(result);
    } catch (error) {
      console.error(error);
      alert(failureText(kind === "top_up" ? "top up" : "deduct", error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span ref={anchor} onClick={(e) => e.stopPropagation()}>
      <button
        ref={toggleButton}
        type="button"
        class="au-icon-btn"
        aria-label={`${texts.button} ${resellerName}`}
        aria-expanded={key !== null}
        onClick={toggle}
      >
        {texts.sign}
      </button>
      {key !== null && (
        // Not a <form>: the popover also sits inside the edit screen's form.
        <div
          ref={popover}
          class="panel au-popover"
          style={{ width: `min(${POPOVER_WIDTH_PX}px, 100vw - ${2 * MARGIN_PX}px)` }}
          role="group"
          aria-label={texts.label}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              toggle();
              toggleButton.current?.focus();
            }
            if (e.key !== "Enter") return;
            e.preventDefault();
            void submit();
          }}
        >
          <label>
            {texts.label}
            <input
              type="number"
              min="0.01"
              step="0.01"
              inputMode="decimal"
              ref={field}
              value={amount}
              onInput={(e) => setAmount(e.currentTarget.value)}
            />
          </label>
          <button type="button" class="btn" disabled={busy || !amount} onClick={submit}>
            {texts.button}
          </button>
        </div>
      )}
    </span>
  );
}
