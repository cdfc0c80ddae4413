// Spec §2 My Account › Account Balance History: newest first, 20 per page; an order_placed row
// with its order has an info popup with the order's id, date, item and amount.
import { useEffect, useState } from "react";
import { BALANCE_TYPE_LABELS, type BalanceEntryDto } from "../../shared/order-types.ts";
import { callApi } from "../lib/api.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { failureText, formatDate, RESELLER_PAGE_SIZE, withGem } from "./format.ts";
import { InfoPopup } from "./InfoPopup.tsx";
import { Pagination } from "./Pagination.tsx";

export interface BalanceHistoryProps {
  /** The signed-in reseller's id, for the history path. */
  resellerId: string;
}

function OrderDetails({ order }: { order: NonNullable<BalanceEntryDto["order"]> }) {
  return (
    <InfoPopup label="Order details">
      <span class="rs-detail">
        <span class="muted">Order ID:</span> {order.id}
      </span>
      <span class="rs-detail">
        <span class="muted">Date:</span> {formatDate(order.date)}
      </span>
      <span class="rs-detail">
        <span class="muted">Item:</span> {withGem(order.item)}
      </span>
      <span class="rs-detail">
        <span class="muted">Amount:</span> {dollarsToDollarString(order.amount)}
      </span>
    </InfoPopup>
  );
}

export function BalanceHistory({ resellerId }: BalanceHistoryProps) {
  const [entries, setEntries] = useState<BalanceEntryDto[] | null>(null);
  const [page, setPage] = useState(1);
  useEffect(() => {
    callApi<BalanceEntryDto[]>(
      "GET",
      `/api/reseller/${encodeURIComponent(resellerId)}/balance_history`,
    )
      .then(setEntries)
      .catch((error) => {
        console.error(error);
        alert(failureText("get balance history", error));
        setEntries([]);
      });
  }, [resellerId]);

  const pageCount = Math.max(1, Math.ceil((entries?.length ?? 0) / RESELLER_PAGE_SIZE));
  const rows = entries?.slice((page - 1) * RESELLER_PAGE_SIZE, page * RESELLER_PAGE_SIZE) ?? [];
  return (
    <section class="rs-history">
      <h3>Account Balance History</h3>
      {entries === null ? <p class="muted" role="status">Loading...</p> : (
        <>
          <div class="rs-scroll">
            <table class="rs-table">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Old Balance</th>
                  <th>New Balance</th>
                  <th>Type</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((entry) => (
                  <tr key={entry.id}>
                    <td class="rs-nowrap">{formatDate(entry.date)}</td>
                    <td>{dollarsToDollarString(entry.old)}</td>
                    <td>{dollarsToDollarString(entry.new)}</td>
                    <td>
                      <span class="rs-cell">
                        <span class="rs-type">{BALANCE_TYPE_LABELS[entry.type] ?? entry.type}</span>
                        {entry.type === "order_placed" && entry.order && (
                          <OrderDetails order={entry.order} />
                        )}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pageCount={pageCount} onPage={setPage} />
        </>
      )}
    </section>
  );
}
