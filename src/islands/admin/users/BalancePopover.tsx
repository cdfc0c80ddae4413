// Spec §2 Resellers list: the plus popover ('Amount to Top Up', Top Up) and the minus popover
// ('Amount to Deduct', Deduct) of a balance. Each opening gets a fresh Idempotency-Key, so a
// double click or a retried request moves the balance once.
import { useEffect, useRef, useState } from "react";
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

export function BalancePopover(
  { resellerId, resellerName, kind, onMoved, onSend }: BalancePopoverProps,
) {
  const texts = TEXTS[kind];
  const [key, setKey] = useState<string | null>(null);
  const [amount, setAmount] = useState("");
  const [busy, setBusy] = useState(false);
  const [at, setAt] = useState({ top: 0, left: 0 });
  const anchor = useRef<HTMLSpanElement>(null);

  const toggle = () => {
    setAmount("");
    if (key !== null) return setKey(null);
    // Fixed to the viewport: inside the table's scroll box the popover would be clipped.
    const rect = anchor.current!.getBoundingClientRect();
    const width = POPOVER_WIDTH_PX;
    setAt({
      top: rect.bottom + 6,
      left: Math.max(8, Math.min(rect.right - width, globalThis.innerWidth - width - 8)),
    });
    setKey(crypto.randomUUID());
  };

  // A click elsewhere, a scroll or a resize closes the popover (it would float off its button).
  useEffect(() => {
    if (key === null) return;
    const close = (event: Event) => {
      if (event.type === "mousedown" && anchor.current?.contains(event.target as Node)) return;
      setKey(null);
    };
    document.addEventListener("mousedown", close);
    globalThis.addEventListener("resize", close);
    document.addEventListener("scroll", close, true);
    return () => {
      document.removeEventListener("mousedown", close);
      globalThis.removeEventListener("resize", close);
      document.removeEventListener("scroll", close, true);
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
          class="panel au-popover"
          style={{ top: `${at.top}px`, left: `${at.left}px`, width: `${POPOVER_WIDTH_PX}px` }}
          role="group"
          aria-label={texts.label}
          onKeyDown={(e) => {
            if (e.key === "Escape") toggle();
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
              autoFocus
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
