// "Try again" on an order whose payment ended unpaid: the server starts the same purchase as a new
// order (POST /api/order/{id}/try-again), the result page's saved details follow the new order
// number, and the browser goes to its payment page, as Complete Payment does.
import { useSignal } from "@preact/signals";
import { type ConsumerOrderView, ORDER_DRAFT_KEY } from "../../shared/consumer-storefront.ts";
import { callApi } from "../lib/api.ts";
import { PaymentError, paymentRefusalReason } from "./PaymentError.tsx";

export interface TryAgainProps {
  /** The order whose payment ended unpaid. */
  order: ConsumerOrderView;
}

/** The saved details of `order` renumbered to the new order, keeping what the top-up page saved. */
function renumberedDraft(order: ConsumerOrderView, orderID: string): string {
  let saved: Record<string, unknown> = {};
  try {
    const draft = JSON.parse(localStorage.getItem(ORDER_DRAFT_KEY) ?? "null");
    if (draft?.orderID === order.orderID) saved = draft;
  } catch {
    // Unreadable: the order's own view stands in.
  }
  const { bankTransfer: _account, ...view } = order;
  return JSON.stringify({ ...view, ...saved, orderID, status: "pending-customer-payment" });
}

export function TryAgain({ order }: TryAgainProps) {
  const busy = useSignal(false);
  const failure = useSignal<string | null>(null);

  const retry = async () => {
    busy.value = true;
    failure.value = null;
    try {
      const started = await callApi<{ orderID: string; paymentUrl: string }>(
        "POST",
        `/api/order/${encodeURIComponent(order.orderID)}/try-again`,
      );
      localStorage.setItem(ORDER_DRAFT_KEY, renumberedDraft(order, started.orderID));
      location.assign(started.paymentUrl);
    } catch (error) {
      console.error(error);
      failure.value = paymentRefusalReason(error);
      busy.value = false;
    }
  };

  // The error sits above the button's row: a row's buttons never wrap, a reason must.
  return (
    <>
      {failure.value !== null && <PaymentError reason={failure.value} />}
      <div class="ct-actions">
        <button
          type="button"
          class="btn"
          disabled={busy.value}
          aria-busy={busy.value}
          onClick={retry}
        >
          {busy.value && <span class="ct-spinner" aria-hidden="true" />}Try again
        </button>
      </div>
    </>
  );
}
