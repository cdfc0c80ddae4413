// Spec §2 consumer payment result: headline, sub text and tip per status, the contact buttons and
// the order block; spec §4: the status is polled every 3 s and polling stops on a final status or
// after 30 s. Beyond the spec: the order's timeline under the block (read again when the status
// changes and when polling stops, since a check in Needs review starts without a status change),
// "Check again" once polling stopped while the order may still change (short of a final status, or
// at error, which a refund may follow), and "I have paid" on a HitPay order awaiting payment.
// Shared by /payment/success and the order lookup.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import {
  type ConsumerOrderView,
  consumerStatusLabel,
  FINAL_STATUSES,
  offersCheckAgain,
  resultTextsFor,
  RETRYABLE_STATUSES,
} from "../../shared/consumer-storefront.ts";
import { callApi } from "../lib/api.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { GemText } from "../lib/GemText.tsx";
import type { ConsumerOrderTimeline } from "../../shared/consumer-order-timeline.ts";
import { AWAITING_PAYMENT } from "../../shared/order-lifecycle.ts";
import { BankTransfer } from "./BankTransfer.tsx";
import { OrderTimeline } from "./OrderTimeline.tsx";
import { PaymentCheck } from "./PaymentCheck.tsx";
import { TryAgain } from "./TryAgain.tsx";
import { RefreshIcon } from "../lib/icons.tsx";

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

/** GET /api/order/{id}/timeline: the order's steps with their times. */
export async function fetchOrderTimeline(orderId: string): Promise<ConsumerOrderTimeline> {
  return await callApi<ConsumerOrderTimeline>(
    "GET",
    `/api/order/${encodeURIComponent(orderId)}/timeline`,
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
  const checking = useSignal(false);
  const timeline = useSignal<ConsumerOrderTimeline | null>(null);
  /** Each round of polling: the first, and one more when "I have paid" finds the payment. */
  const round = useSignal(0);

  // The timeline adds to the spec's page: when it cannot be read, the page goes on without it.
  const loadTimeline = async () => {
    try {
      timeline.value = await fetchOrderTimeline(order.orderID);
    } catch (error) {
      console.error(error);
    }
  };

  useEffect(() => {
    if (round.value === 0) loadTimeline();
    if (!polling.value) return;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const before = status.value;
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
      const stop = FINAL_STATUSES.includes(status.value) || Date.now() - started >= POLL_FOR_MS;
      if (stop || status.value !== before) loadTimeline();
      if (stop) {
        polling.value = false;
      } else {
        timer = setTimeout(poll, POLL_EVERY_MS);
      }
    };
    timer = setTimeout(poll, POLL_EVERY_MS);
    return () => clearTimeout(timer);
  }, [order.orderID, round.value]);

  /** "Check again": one more status call (and the timeline) on demand, after polling stopped. */
  const checkAgain = async () => {
    checking.value = true;
    try {
      const answer = await fetchOrderStatus(order.orderID);
      status.value = answer.status;
      bankTransfer.value = answer.bankTransfer;
      await loadTimeline();
    } catch (error) {
      console.error(error);
      onFailed();
    } finally {
      checking.value = false;
    }
  };

  /**
   * The status after "I have paid" asked HitPay. Found paid, the order is followed as on arrival:
   * polled again (spec §4's 3 s, up to 30 s) until it is delivered.
   */
  const paymentChecked = (after: string) => {
    if (after === status.value) return;
    status.value = after;
    loadTimeline();
    if (!FINAL_STATUSES.includes(after)) {
      polling.value = true;
      round.value++;
    }
  };

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
      {status.value === AWAITING_PAYMENT && timeline.value?.canCheckPayment && (
        <PaymentCheck orderId={order.orderID} onStatus={paymentChecked} />
      )}
      {!polling.value && offersCheckAgain(status.value) && (
        <div class="ct-actions">
          <button
            type="button"
            class="btn-secondary"
            disabled={checking.value}
            aria-busy={checking.value}
            onClick={checkAgain}
          >
            {checking.value
              ? <span class="ct-spinner" aria-hidden="true" />
              : <RefreshIcon size={16} class="ct-button-icon" />}Check again
          </button>
        </div>
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
      {timeline.value && <OrderTimeline entries={timeline.value.entries} />}
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
