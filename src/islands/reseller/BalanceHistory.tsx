// Spec §2 My Account › Account Balance History: newest first, 20 per page; an order_placed row
// with its order has an info popup with the order's id, date, item and amount. The admin's
// reseller edit screen shows the same table, 10 per page (spec §9).
import { useEffect, useState } from "react";
import { BALANCE_TYPE_LABELS, type BalanceEntryDto } from "../../shared/order-types.ts";
import { callApi } from "../lib/api.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { failureText, formatDate, RESELLER_PAGE_SIZE } from "../lib/order-format.ts";
import { WithGem } from "../lib/icon-text.tsx";
import { InfoPopup } from "../lib/InfoPopup.tsx";
import { Pagination } from "../lib/Pagination.tsx";

export interface BalanceHistoryProps {
  /** The reseller's id, for the history path (the signed-in one, or any for an admin). */
  resellerId: string;
  /** Rows per page; the reseller's own page shows 20. */
  pageSize?: number;
  /** Changes after a balance move, to read the history again. */
  version?: number;
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
        <span class="muted">Item:</span> <WithGem text={order.item} />
      </span>
      <span class="rs-detail">
        <span class="muted">Amount:</span> {dollarsToDollarString(order.amount)}
      </span>
    </InfoPopup>
  );
}

export function BalanceHistory(
  { resellerId, pageSize = RESELLER_PAGE_SIZE, version = 0 }: BalanceHistoryProps,
) {
  const [entries, setEntries] = useState<BalanceEntryDto[] | null>(null);
  const [page, setPage] = useState(1);
  useEffect(() => {
    callApi<BalanceEntryDto[]>(
      "GET",
      `/api/reseller/${encodeURIComponent(resellerId)}/balance_history`,
    )
      .then((list) => {
        setEntries(list);
        setPage(1);
      })
      .catch((error) => {
        console.error(error);
        alert(failureText("get balance history", error));
        setEntries([]);
      });
  }, [resellerId, version]);

  const pageCount = Math.max(1, Math.ceil((entries?.length ?? 0) / pageSize));
  const rows = entries?.slice((page - 1) * pageSize, page * pageSize) ?? [];
  return (
    <section class="rs-history" aria-label="Account Balance History">
      <h3>Account Balance History</h3>
      {entries === null ? <p class="muted" role="status">Loading...</p> : (
        <>
          <div class="rs-scroll" tabIndex={0} role="region" aria-label="Balance changes">
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
