// "I have paid" on a HitPay order still awaiting payment: the server asks HitPay at once
// (POST /api/order/{id}/check-payment) and answers the status after, which the result page shows.
// A click within HitPay's per-order limit gets the server's text saying when to try again.
import { useSignal } from "@preact/signals";
import { AWAITING_PAYMENT } from "../../shared/order-lifecycle.ts";
import { ApiError, callApi } from "../lib/api.ts";

export interface PaymentCheckProps {
  /** The order whose payment to check. */
  orderId: string;
  /** Called with the order's status after HitPay was asked. */
  onStatus: (status: string) => void;
}

/** What the page says when HitPay, asked, holds no payment for the order yet. */
export const NO_PAYMENT_YET =
  "HitPay has no payment for this order yet. If you have just paid, please wait a moment and " +
  "try again.";

export function PaymentCheck({ orderId, onStatus }: PaymentCheckProps) {
  const busy = useSignal(false);
  const note = useSignal("");

  const check = async () => {
    busy.value = true;
    note.value = "";
    try {
      const { status } = await callApi<{ status: string }>(
        "POST",
        `/api/order/${encodeURIComponent(orderId)}/check-payment`,
      );
      if (status === AWAITING_PAYMENT) note.value = NO_PAYMENT_YET;
      onStatus(status);
    } catch (error) {
      console.error(error);
      note.value = error instanceof ApiError
        ? error.message
        : "Could not check your payment. Please try again.";
    } finally {
      busy.value = false;
    }
  };

  return (
    <>
      <div class="ct-actions">
        <button
          type="button"
          class="btn"
          disabled={busy.value}
          aria-busy={busy.value}
          onClick={check}
        >
          {busy.value && <span class="ct-spinner" aria-hidden="true" />}I have paid
        </button>
      </div>
      {note.value && <p class="muted ct-check-note" role="status">{note.value}</p>}
    </>
  );
}
