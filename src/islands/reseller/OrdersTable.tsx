// Spec §2 Orders table: one row per order with its popups, status icon and refresh button.
import type { ResellerOrderDto } from "../../shared/order-types.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { formatDate, isOpenOrder, statusLabel, withGem } from "./format.ts";
import { InfoPopup } from "./InfoPopup.tsx";

export interface OrdersTableProps {
  /** The orders of the page shown. */
  orders: ResellerOrderDto[];
  /** The order being refreshed, "all" during Refresh All Status, else null. */
  refreshing: string | null;
  /** Refreshes one new or pending order. */
  onRefresh: (order: ResellerOrderDto) => void;
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <span class="rs-detail">
      <span class="muted">{label}:</span> {value || "-"}
    </span>
  );
}

export function OrdersTable({ orders, refreshing, onRefresh }: OrdersTableProps) {
  return (
    <div class="rs-scroll">
      <table class="rs-table rs-orders-table">
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
                <span class="rs-cell">
                  <span class="rs-id">{order.id}</span>
                  <InfoPopup label="Order details">
                    <Detail label="Order ID" value={order.id} />
                    <Detail label="Supplier Order ID" value={order.supplierOrderID} />
                    <Detail label="Denomination" value={order.denom} />
                  </InfoPopup>
                </span>
              </td>
              <td class="rs-nowrap">{formatDate(order.date)}</td>
              <td>
                <span class="rs-cell">
                  {order.game}
                  <InfoPopup label="Package">
                    <Detail label="Package" value={order.package} />
                  </InfoPopup>
                </span>
              </td>
              <td>
                <span class="rs-cell">
                  {order.userName}
                  <InfoPopup label="User details">
                    <Detail label="User ID" value={order.userID} />
                    <Detail label="Server ID" value={order.serverID} />
                  </InfoPopup>
                </span>
              </td>
              <td class="rs-nowrap">{withGem(order.item)}</td>
              <td class="rs-nowrap">{dollarsToDollarString(order.amount)}</td>
              <td class="rs-nowrap">{dollarsToDollarString(order.reseller.oldBalance)}</td>
              <td class="rs-nowrap">{dollarsToDollarString(order.reseller.newBalance)}</td>
              <td>
                <span class="rs-cell rs-nowrap">
                  <span class="rs-status">{statusLabel(order.status)}</span>
                  {isOpenOrder(order) && (
                    <button
                      type="button"
                      class="rs-refresh"
                      aria-label="Refresh status"
                      disabled={refreshing !== null}
                      aria-busy={refreshing === order.id || refreshing === "all"}
                      onClick={() => onRefresh(order)}
                    >
                      🔄
                    </button>
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
