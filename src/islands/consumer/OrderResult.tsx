// Spec §2 consumer payment result: headline, sub text and tip per status, the contact buttons and
// the order block; spec §4: the status is polled every 3 s and polling stops on a final status or
// after 30 s. Shared by /payment/success and the order lookup.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import {
  type ConsumerOrderView,
  consumerStatusLabel,
  FINAL_STATUSES,
  resultTextsFor,
  RETRYABLE_STATUSES,
} from "../../shared/consumer-storefront.ts";
import { callApi } from "../lib/api.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { GemText } from "../lib/GemText.tsx";
import { BankTransfer } from "./BankTransfer.tsx";
import { TryAgain } from "./TryAgain.tsx";

/** Spec §9: poll every 3 seconds, give up after 30. */
const POLL_EVERY_MS = 3_000;
const POLL_FOR_MS = 30_000;

export interface ContactLinks {
  /** The WhatsApp chat address (configuration). */
  whatsappUrl: string;
  /** The Telegram chat address (configuration). */
  telegramUrl: string;
}

export interface OrderResultProps extends ContactLinks {
  /** The order as saved or looked up; its status is refreshed by polling. */
  order: ConsumerOrderView;
  /** Called when a status call fails: the page shows 'Failed to fetch order details'. */
  onFailed: () => void;
}

/** GET /api/order/{id}/status (spec §7): the status, and a manual order's transfer account. */
export async function fetchOrderStatus(orderId: string): Promise<OrderStatusAnswer> {
  return await callApi<OrderStatusAnswer>(
    "GET",
    `/api/order/${encodeURIComponent(orderId)}/status`,
  );
}

/** The status call's answer. */
export type OrderStatusAnswer = Pick<ConsumerOrderView, "status" | "bankTransfer">;

/** The 'Back to Games' link (spec §2); `secondary` beside another button. */
export function BackToGames({ secondary = false }: { secondary?: boolean }) {
  return <a class={secondary ? "btn-secondary" : "btn"} href="/consumers">Back to Games</a>;
}

export function OrderResult({ order, onFailed, whatsappUrl, telegramUrl }: OrderResultProps) {
  const status = useSignal(order.status);
  const bankTransfer = useSignal(order.bankTransfer);
  const polling = useSignal(!FINAL_STATUSES.includes(order.status));

  useEffect(() => {
    if (!polling.value) return;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const answer = await fetchOrderStatus(order.orderID);
        status.value = answer.status;
        bankTransfer.value = answer.bankTransfer;
      } catch (error) {
        console.error(error);
        polling.value = false;
        onFailed();
        return;
      }
      if (FINAL_STATUSES.includes(status.value) || Date.now() - started >= POLL_FOR_MS) {
        polling.value = false;
      } else {
        timer = setTimeout(poll, POLL_EVERY_MS);
      }
    };
    timer = setTimeout(poll, POLL_EVERY_MS);
    return () => clearTimeout(timer);
  }, [order.orderID]);

  const texts = resultTextsFor(status.value, { awaitingTransfer: !!bankTransfer.value });
  const amount = dollarsToDollarString(order.amount);
  // A row only for what is known: a game without a server has no Server ID, and a page opened
  // from the payment's reference alone shows no player.
  const rows = ([
    ["Order Number", order.orderID],
    ["Order Status", consumerStatusLabel(status.value)],
    ["User Name", order.userName],
    ["User ID", order.userid],
    order.serverName ? ["Server", order.serverName] : ["Server ID", order.serverid],
  ] as [string, string | undefined][]).filter((row): row is [string, string] => !!row[1]);
  const playerShown = order.userid !== undefined;
  return (
    <section class="ct-result" aria-busy={polling.value}>
      <h1>{texts.headline}</h1>
      <p class="ct-result-sub">{texts.sub}</p>
      <p class="muted">{texts.tip}</p>
      {polling.value && (
        <p class="muted ct-checking" role="status">
          <span class="ct-spinner" aria-hidden="true" />Checking your order status...
        </p>
      )}
      {bankTransfer.value && (
        <BankTransfer details={bankTransfer.value} orderId={order.orderID} amount={amount} />
      )}
      {RETRYABLE_STATUSES.includes(status.value) && <TryAgain order={order} />}
      <p class="ct-contact">
        <a class="btn-secondary" href={whatsappUrl} target="_blank" rel="noopener">WhatsApp</a>
        <a class="btn-secondary" href={telegramUrl} target="_blank" rel="noopener">Telegram</a>
      </p>
      <dl class="panel ct-order-block">
        {rows.map(([term, value]) => (
          <div key={term} class={term === "Order Number" ? "ct-id-row" : undefined}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div>
          <dt>Item</dt>
          <dd>
            <GemText text={order.itemName} />
          </dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>{amount}</dd>
        </div>
      </dl>
      {!playerShown && (
        <p class="muted ct-find-order">
          This page opened without your order's details, so only the order is shown.{" "}
          <a href={`/consumers/order?order=${encodeURIComponent(order.orderID)}`}>Find my order</a>
          {" "}
          with its number and your email address to see all of it.
        </p>
      )}
      <p class="ct-back">
        <BackToGames secondary />
      </p>
    </section>
  );
}
