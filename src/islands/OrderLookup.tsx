// /consumers/order (beyond the spec): a buyer on another device finds an order by its number and
// the billing email, then sees it as on the result page. The server answers only when both match.
import { useSignal } from "@preact/signals";
import type { ConsumerOrderView } from "../shared/consumer-storefront.ts";
import { callApi } from "./lib/api.ts";
import { useHydrated, useTypedBeforeHydration } from "./lib/hydrated.ts";
import { useRef } from "react";
import { BackToGames, type ContactLinks, OrderResult } from "./consumer/OrderResult.tsx";

export interface OrderLookupProps extends ContactLinks {
  /** The order number from the receipt's link (?order=…), or "". */
  orderId: string;
}

export default function OrderLookup({ orderId, ...contact }: OrderLookupProps) {
  const orderID = useSignal(orderId);
  const email = useSignal("");
  const busy = useSignal(false);
  const problem = useSignal("");
  const found = useSignal<ConsumerOrderView | null>(null);
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  useTypedBeforeHydration(form, { order: orderID, email });

  const find = async (e: Event) => {
    e.preventDefault();
    if (busy.value) return;
    if (!orderID.value.trim() || !email.value.trim()) {
      problem.value = "Please enter the order number and the email address.";
      return;
    }
    busy.value = true;
    problem.value = "";
    try {
      found.value = await callApi<ConsumerOrderView>("POST", "/api/consumers/order", {
        orderID: orderID.value.trim(),
        email: email.value.trim(),
      });
    } catch (error) {
      problem.value = error instanceof Error ? error.message : String(error);
    } finally {
      busy.value = false;
    }
  };

  if (found.value) {
    return (
      <OrderResult
        {...contact}
        order={found.value}
        onFailed={() => {
          found.value = null;
          problem.value = "Failed to fetch order details";
        }}
      />
    );
  }
  return (
    <form ref={form} class="panel ct-lookup" noValidate onSubmit={find}>
      <h1>Find your order</h1>
      <p class="muted">Enter the order number from your receipt and your billing email address.</p>
      <label>
        Order Number
        <input
          name="order"
          autoComplete="off"
          autoCapitalize="characters"
          spellcheck={false}
          value={orderID.value}
          onInput={(e) => orderID.value = e.currentTarget.value}
        />
      </label>
      <label>
        Email Address
        <input
          name="email"
          type="email"
          autoComplete="email"
          value={email.value}
          onInput={(e) => email.value = e.currentTarget.value}
        />
      </label>
      {problem.value && <p class="error" role="alert">{problem.value}</p>}
      <p class="ct-actions">
        <button
          type="submit"
          class="btn"
          disabled={!hydrated || busy.value}
          aria-busy={!hydrated || busy.value}
        >
          Find Order
        </button>
        <BackToGames secondary />
      </p>
    </form>
  );
}
