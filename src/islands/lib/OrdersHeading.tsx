// The heading of the orders screens, the reseller's and the admin's (spec §2 Orders): the title,
// search 'Search order...', 'Refresh All Status' when more than one order is new or pending, and
// Export.
import { callApi } from "./api.ts";
export interface OrdersHeadingProps {
  /** The search box's text. */
  search: string;
  /** Called with the new search text. */
  onSearch: (search: string) => void;
  /** How many orders shown are still new or pending. */
  openCount: number;
  /** The order being refreshed, "all" during Refresh All Status, else null. */
  refreshing: string | null;
  /** Refreshes every open order. */
  onRefreshAll: () => void;
  /** Where Export downloads the spreadsheet from. */
  exportHref: string;
}

export function OrdersHeading(
  { search, onSearch, openCount, refreshing, onRefreshAll, exportHref }: OrdersHeadingProps,
) {
  return (
    <div class="rs-heading">
      <h2>Orders</h2>
      <div class="rs-toolbar">
        <input
          type="search"
          class="rs-search"
          placeholder="Search order..."
          aria-label="Search order"
          value={search}
          onInput={(e) => onSearch(e.currentTarget.value)}
        />
        {openCount > 1 && (
          <button
            type="button"
            class="btn-secondary"
            disabled={refreshing !== null}
            aria-busy={refreshing === "all"}
            onClick={onRefreshAll}
          >
            {refreshing === "all" && <span class="rs-spinner" aria-hidden="true" />}
            Refresh All Status
          </button>
        )}
        <a class="btn rs-link-button" href={exportHref} download>Export</a>
      </div>
    </div>
  );
}

/**
 * Spec §7 refresh calls: POST /api/reseller/order/{id}/refresh_status with its denom, or, for no
 * order, POST /api/reseller/orders/refresh_all_status. The server decides whose orders a session
 * may refresh (a reseller its own, an admin any).
 */
export async function requestStatusRefresh(order: { id: string; denom: string } | null) {
  if (order) {
    await callApi("POST", `/api/reseller/order/${encodeURIComponent(order.id)}/refresh_status`, {
      denom: order.denom,
    });
  } else {
    await callApi("POST", "/api/reseller/orders/refresh_all_status");
  }
}
