// Admin → Orders → Needs review: the orders the system will not decide alone, longest
// waiting first, with their supplier attempts and the operator's three decisions. One tbody per
// order: its facts, then its reason, attempts and actions; narrow screens stack each as a card.
import { useState } from "react";
import type {
  ReviewAction,
  ReviewOrderDto,
  SupplierAttemptDto,
} from "../../../shared/order-types.ts";
import { dollarsToDollarString } from "../../lib/format.ts";
import { FAILED } from "../../../shared/order-lifecycle.ts";
import { SupplierName, WithGem } from "../../lib/icon-text.tsx";
import { formatDate } from "../../lib/order-format.ts";
import { DECISIONS, ReviewDecisionDialog } from "./ReviewDecisionDialog.tsx";
import { StackCell } from "./StackCell.tsx";

export interface ReviewQueueProps {
  /** The orders waiting, longest waiting first, as GET /api/orders/review sends them. */
  orders: ReviewOrderDto[];
  /** Fetches the queue again once a decision was posted. */
  onPosted: () => void;
}

const ACTIONS: ReviewAction[] = ["delivered", "refund", "resend"];

/**
 * The decisions an order allows: a consumer order that already failed waits for its refund, so
 * only Refund (HitPay asked again) makes sense there.
 */
function actionsFor(order: ReviewOrderDto): ReviewAction[] {
  return order.consumer && order.status === FAILED ? ["refund"] : ACTIONS;
}

function Buyer({ order }: { order: ReviewOrderDto }) {
  if (order.reseller) {
    return (
      <>
        {order.reseller.name} <span class="muted">(reseller)</span>
      </>
    );
  }
  return (
    <>
      {order.consumer?.name}
      <span class="muted ao-block">{order.consumer?.email}</span>
    </>
  );
}

function Attempts({ attempts }: { attempts: SupplierAttemptDto[] }) {
  if (attempts.length === 0) return <p class="muted">No supplier attempt recorded.</p>;
  return (
    <>
      <p class="muted">Supplier attempts</p>
      <ol class="ao-attempts">
        {attempts.map((attempt, i) => (
          <li key={i}>
            <time class="muted rs-nowrap" dateTime={attempt.at}>{formatDate(attempt.at)}</time>{" "}
            <strong>{attempt.outcome}</strong> <span class="ao-answer">{attempt.answer}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

export function ReviewQueue({ orders, onPosted }: ReviewQueueProps) {
  const [deciding, setDeciding] = useState<
    { order: ReviewOrderDto; action: ReviewAction } | null
  >(null);
  if (orders.length === 0) return <p class="muted">No orders need review.</p>;
  return (
    <>
      <table class="rs-table ao-stack ao-review">
        <thead>
          <tr>
            <th>Order</th>
            <th>Buyer</th>
            <th>Game and Item</th>
            <th>Amount</th>
            <th>Supplier</th>
            <th>Waiting Since</th>
          </tr>
        </thead>
        {orders.map((order) => (
          <tbody key={order.id} class="ao-card" data-order-id={order.id}>
            <tr>
              <StackCell label="Order">
                <span class="rs-id">{order.id}</span>
              </StackCell>
              <StackCell label="Buyer">
                <Buyer order={order} />
              </StackCell>
              <StackCell label="Game and Item">
                {order.game}
                <span class="ao-block">
                  <WithGem text={order.item} />
                </span>
              </StackCell>
              <StackCell label="Amount">{dollarsToDollarString(order.amount)}</StackCell>
              <StackCell label="Supplier">
                <SupplierName supplier={order.supplier} />
              </StackCell>
              <StackCell label="Waiting Since">
                <time dateTime={order.reviewSince}>{formatDate(order.reviewSince)}</time>
              </StackCell>
            </tr>
            <tr>
              <td colSpan={6} class="ao-review-detail">
                <p class="ao-reason">
                  <span class="muted">Reason:</span> {order.reviewReason}
                </p>
                {order.refund && (
                  <p class="ao-reason">
                    <span class="muted">Refund:</span> {dollarsToDollarString(order.refund.amount)}
                    {" "}
                    {order.refund.status}
                    {order.refund.hitpayRefundId && ` (HitPay ${order.refund.hitpayRefundId})`}
                    {order.refund.error && `: ${order.refund.error}`}
                  </p>
                )}
                <Attempts attempts={order.attempts} />
                <div class="ao-actions">
                  {actionsFor(order).map((action) => (
                    <button
                      key={action}
                      type="button"
                      class={action === "delivered" ? "btn au-small" : "btn-secondary au-small"}
                      onClick={() => setDeciding({ order, action })}
                    >
                      {DECISIONS[action].label}
                    </button>
                  ))}
                </div>
              </td>
            </tr>
          </tbody>
        ))}
      </table>
      {deciding && (
        <ReviewDecisionDialog
          order={deciding.order}
          action={deciding.action}
          onPosted={onPosted}
          onClose={() => setDeciding(null)}
        />
      )}
    </>
  );
}
