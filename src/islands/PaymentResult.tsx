// Spec §2 /payment/success: reads the order draft the top-up page saved (or, in a browser that did
// not start the checkout, the order HitPay's redirect names), shows 'Loading order details...',
// then the order with its current status. The browser's arrival here proves nothing:
// the status comes from the server, which only HitPay's webhook (or an admin) moves.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import {
  type ConsumerOrderDraft,
  type ConsumerOrderView,
  ORDER_DRAFT_KEY,
} from "../shared/consumer-storefront.ts";
import {
  BackToGames,
  type ContactLinks,
  fetchOrderStatus,
  OrderResult,
  type OrderStatusAnswer,
} from "./consumer/OrderResult.tsx";
import { ApiError, callApi } from "./lib/api.ts";

export type PaymentResultProps = ContactLinks;

type State =
  | { kind: "loading" }
  | { kind: "none" }
  | { kind: "failed" }
  | { kind: "ready"; order: ConsumerOrderView };

function readDraft(): ConsumerOrderDraft | null {
  try {
    const draft = JSON.parse(localStorage.getItem(ORDER_DRAFT_KEY) ?? "null");
    return draft && typeof draft.orderID === "string" ? draft : null;
  } catch {
    return null;
  }
}

/**
 * The order's status on arrival. Back from HitPay's Cancel (its redirect appends
 * `status=canceled` and the payment request id as `reference`), the server is told, and it
 * checks with HitPay before recording the cancel; otherwise the status call answers.
 */
async function startingStatus(orderId: string): Promise<OrderStatusAnswer> {
  const query = new URLSearchParams(location.search);
  const reference = query.get("reference");
  if (query.get("status") !== "canceled" || !reference) return await fetchOrderStatus(orderId);
  return await callApi<OrderStatusAnswer>(
    "POST",
    `/api/order/${encodeURIComponent(orderId)}/cancel-payment`,
    { reference },
  );
}

/**
 * The order this page is about. HitPay's redirect names its payment request (`reference`): the
 * saved draft is this order's only when the server says the reference is for the same order
 * number; opened in a browser that did not start the checkout (a wallet app handing back to
 * another browser, another device), the server's view of the order stands alone.
 */
async function orderToShow(): Promise<ConsumerOrderView | null> {
  const draft = readDraft();
  const reference = new URLSearchParams(location.search).get("reference");
  const fromDraft = draft && {
    orderID: draft.orderID,
    gameName: draft.gameName,
    userName: draft.userName,
    userid: draft.userid,
    serverid: draft.serverid,
    serverName: draft.serverName,
    itemName: draft.itemName,
    amount: draft.amount,
    status: draft.status,
  };
  if (!reference) return fromDraft;
  try {
    const found = await callApi<ConsumerOrderView>(
      "GET",
      `/api/consumers/order?reference=${encodeURIComponent(reference)}`,
    );
    return fromDraft?.orderID === found.orderID ? fromDraft : found;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return fromDraft;
    throw error;
  }
}

export default function PaymentResult(props: PaymentResultProps) {
  const state = useSignal<State>({ kind: "loading" });

  useEffect(() => {
    (async () => {
      const order = await orderToShow();
      if (!order) {
        state.value = { kind: "none" };
        return;
      }
      const { status, bankTransfer } = await startingStatus(order.orderID);
      state.value = { kind: "ready", order: { ...order, status, bankTransfer } };
    })().catch((error) => {
      console.error(error);
      state.value = { kind: "failed" };
    });
  }, []);

  const current = state.value;
  if (current.kind === "loading") {
    return <p class="muted" role="status">Loading order details...</p>;
  }
  if (current.kind !== "ready") {
    return (
      <section class="ct-result">
        <div role="alert">
          <h1 class="error">
            {current.kind === "none" ? "No order details found" : "Failed to fetch order details"}
          </h1>
        </div>
        <BackToGames />
      </section>
    );
  }
  return (
    <OrderResult
      {...props}
      order={current.order}
      onFailed={() => state.value = { kind: "failed" }}
    />
  );
}
