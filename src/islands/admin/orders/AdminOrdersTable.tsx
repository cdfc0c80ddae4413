// Spec §2 Admin console 'Orders' tables: the Resellers tab (ID, Status, Date, Game, Package, User,
// Item, Amount, Reseller, Old Balance, New Balance) and the Consumers tab (the first seven, Amount,
// Customer Name, Email, Phone), with their popovers.
import type { AdminOrderDto, OrderBuyerType } from "../../../shared/order-types.ts";
import { dollarsToDollarString } from "../../lib/format.ts";
import { formatDate } from "../../lib/order-format.ts";
import { WithGem } from "../../lib/icon-text.tsx";
import { InfoPopup } from "../../lib/InfoPopup.tsx";
import { Detail, OrderIdCell, StatusCell, UserCell } from "../../lib/order-cells.tsx";

export interface AdminOrdersTableProps {
  /** Which tab: its columns differ after Amount. */
  buyerType: OrderBuyerType;
  /** The orders of the page shown. */
  orders: AdminOrderDto[];
  /** The order being refreshed, "all" during Refresh All Status, else null. */
  refreshing: string | null;
  /** Refreshes one new or pending order. */
  onRefresh: (order: AdminOrderDto) => void;
  /** Opens the confirmation to confirm (or, with cancel, cancel) a manual payment. */
  onSettle: (order: AdminOrderDto, cancel: boolean) => void;
}

/** Amounts as the spec's popovers show them: the dollars the API sends, with $. */
const dollars = dollarsToDollarString;

export function AdminOrdersTable(
  { buyerType, orders, refreshing, onRefresh, onSettle }: AdminOrdersTableProps,
) {
  const resellers = buyerType === "reseller";
  return (
    <div class="rs-scroll" tabIndex={0} role="region" aria-label="Orders">
      <table class="rs-table rs-orders-table ao-table">
        <thead>
          <tr>
            <th>ID</th>
            <th>Status</th>
            <th>Date</th>
            <th>Game</th>
            <th>Package</th>
            <th>User</th>
            <th>Item</th>
            <th>Amount</th>
            {resellers
              ? (
                <>
                  <th>Reseller</th>
                  <th>Old Balance</th>
                  <th>New Balance</th>
                </>
              )
              : (
                <>
                  <th>Customer Name</th>
                  <th>Email</th>
                  <th>Phone</th>
                </>
              )}
          </tr>
        </thead>
        <tbody>
          {orders.length === 0 && (
            <tr>
              <td colSpan={11} class="muted">No orders found</td>
            </tr>
          )}
          {orders.map((order) => (
            <tr key={order.id} data-order-id={order.id}>
              <td>
                <OrderIdCell order={order}>
                  {order.lastError && <Detail label="Last Error" value={order.lastError} />}
                  {order.refund && (
                    <>
                      <Detail
                        label="Refund"
                        value={`${dollars(order.refund.amount)} ${order.refund.status}`}
                      />
                      <Detail label="HitPay Refund ID" value={order.refund.hitpayRefundId} />
                      {order.refund.error && (
                        <Detail label="Refund Error" value={order.refund.error} />
                      )}
                    </>
                  )}
                </OrderIdCell>
              </td>
              <td>
                <StatusCell
                  status={order.status}
                  refreshable={order.refreshable}
                  busy={refreshing === order.id || refreshing === "all"}
                  disabled={refreshing !== null}
                  onRefresh={() => onRefresh(order)}
                />
                {order.awaitsManualPayment && (
                  <span class="ao-settle">
                    <button
                      type="button"
                      class="btn au-small"
                      onClick={() => onSettle(order, false)}
                    >
                      Confirm Payment
                    </button>
                    <button
                      type="button"
                      class="btn-secondary au-small"
                      onClick={() => onSettle(order, true)}
                    >
                      Cancel Order
                    </button>
                  </span>
                )}
              </td>
              <td class="ao-date">{formatDate(order.date)}</td>
              <td>{order.game}</td>
              <td>{order.package || "-"}</td>
              <td>
                <UserCell order={order} />
              </td>
              <td>
                <span class="rs-cell rs-nowrap">
                  <WithGem text={order.item} />
                  <InfoPopup label="Item amount">
                    <Detail label="Amount" value={dollars(order.amount)} />
                  </InfoPopup>
                </span>
              </td>
              <td>
                <span class="rs-cell rs-nowrap">
                  {dollars(order.amount)}
                  <InfoPopup label="Cost">
                    <Detail label="Cost" value={`$${order.cost}`} />
                  </InfoPopup>
                </span>
              </td>
              {order.reseller
                ? (
                  <>
                    <td>{order.reseller.name}</td>
                    <td class="rs-nowrap">{dollars(order.reseller.oldBalance)}</td>
                    <td class="rs-nowrap">{dollars(order.reseller.newBalance)}</td>
                  </>
                )
                : (
                  <>
                    <td>{order.consumer?.name}</td>
                    <td class="ao-email">{order.consumer?.email}</td>
                    <td class="rs-nowrap">{order.consumer?.phone}</td>
                  </>
                )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
