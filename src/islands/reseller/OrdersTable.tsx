// Spec §2 Orders table: one row per order with its popups, status icon and refresh button.
import type { ResellerOrderDto } from "../../shared/order-types.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { isOpenOrder } from "../lib/order-format.ts";
import { WithGem } from "../lib/icon-text.tsx";
import { InfoPopup } from "../lib/InfoPopup.tsx";
import { DateText, Detail, OrderIdCell, StatusCell, UserCell } from "../lib/order-cells.tsx";

export interface OrdersTableProps {
  /** The orders of the page shown. */
  orders: ResellerOrderDto[];
  /** The order being refreshed, "all" during Refresh All Status, else null. */
  refreshing: string | null;
  /** Refreshes one new or pending order. */
  onRefresh: (order: ResellerOrderDto) => void;
}

export function OrdersTable({ orders, refreshing, onRefresh }: OrdersTableProps) {
  return (
    <div class="rs-scroll" tabIndex={0} role="region" aria-label="Orders">
      <table class="rs-table rs-orders-table rs-reseller-orders">
        <thead>
          <tr>
            <th>Order ID</th>
            <th>Date</th>
            <th>Game</th>
            <th>User Name</th>
            <th>Item</th>
            <th>Amount</th>
            <th>Old Balance</th>
            <th>New Balance</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} data-order-id={order.id}>
              <td>
                <OrderIdCell order={order} />
              </td>
              <td>
                <DateText iso={order.date} />
              </td>
              <td>
                <span class="rs-cell">
                  {order.game}
                  <InfoPopup label="Package">
                    <Detail label="Package" value={order.package} />
                  </InfoPopup>
                </span>
              </td>
              <td class="rs-user">
                <UserCell order={order} />
              </td>
              <td>
                <WithGem text={order.item} />
              </td>
              <td class="rs-nowrap">{dollarsToDollarString(order.amount)}</td>
              <td class="rs-nowrap">{dollarsToDollarString(order.reseller.oldBalance)}</td>
              <td class="rs-nowrap">{dollarsToDollarString(order.reseller.newBalance)}</td>
              <td>
                <StatusCell
                  status={order.status}
                  refreshable={isOpenOrder(order)}
                  busy={refreshing === order.id || refreshing === "all"}
                  disabled={refreshing !== null}
                  onRefresh={() => onRefresh(order)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
