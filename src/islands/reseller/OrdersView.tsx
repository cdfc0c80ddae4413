// Spec §2 Orders page: the reseller's own orders, newest first, with search, status refresh,
// Export and 20 rows per page.
import { useEffect, useState } from "react";
import type { ResellerOrderDto } from "../../shared/order-types.ts";
import { callApi } from "../lib/api.ts";
import { failureText, isOpenOrder, RESELLER_PAGE_SIZE } from "../lib/order-format.ts";
import { OrdersTable } from "./OrdersTable.tsx";
import { Pagination } from "../lib/Pagination.tsx";
import { OrdersHeading, requestStatusRefresh } from "../lib/OrdersHeading.tsx";

export interface OrdersViewProps {
  /** The signed-in reseller's id, for the list and export paths. */
  resellerId: string;
  /** Called after a refresh, as a failed order refunds the balance. */
  onRefreshed: () => void;
}

/** Spec §5: a case-insensitive substring over these fields; an empty search shows all. */
function matchesSearch(order: ResellerOrderDto, needle: string): boolean {
  return [
    order.id,
    order.game,
    order.package,
    order.userName,
    order.userID,
    order.serverID,
    order.status,
    order.reseller.name,
    order.item,
    order.supplierOrderID,
  ].some((field) => (field ?? "").toLowerCase().includes(needle));
}

export function OrdersView({ resellerId, onRefreshed }: OrdersViewProps) {
  const [orders, setOrders] = useState<ResellerOrderDto[] | null>(null);
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [refreshing, setRefreshing] = useState<string | null>(null);
  const base = `/api/reseller/${encodeURIComponent(resellerId)}`;

  const load = () =>
    callApi<ResellerOrderDto[]>("GET", `${base}/orders`)
      .then(setOrders)
      .catch((error) => {
        console.error(error);
        alert(failureText("get orders", error));
        setOrders((previous) => previous ?? []);
      });

  useEffect(() => {
    load();
  }, [resellerId]);

  const refresh = async (order: ResellerOrderDto | null) => {
    setRefreshing(order?.id ?? "all");
    try {
      await requestStatusRefresh(order);
    } catch (error) {
      console.error(error);
      alert(failureText("refresh order status", error));
    }
    await load();
    setRefreshing(null);
    onRefreshed();
  };

  if (orders === null) return <p class="muted" role="status">Loading...</p>;
  const needle = search.trim().toLowerCase();
  const shown = needle ? orders.filter((order) => matchesSearch(order, needle)) : orders;
  const pageCount = Math.max(1, Math.ceil(shown.length / RESELLER_PAGE_SIZE));
  const current = Math.min(page, pageCount);
  const rows = shown.slice((current - 1) * RESELLER_PAGE_SIZE, current * RESELLER_PAGE_SIZE);
  const openCount = orders.filter(isOpenOrder).length;

  return (
    <section>
      <OrdersHeading
        search={search}
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
        openCount={openCount}
        refreshing={refreshing}
        onRefreshAll={() => refresh(null)}
        exportHref={`${base}/orders/export`}
      />
      {refreshing !== null && <p class="muted" role="status">Refreshing order status...</p>}
      <OrdersTable orders={rows} refreshing={refreshing} onRefresh={refresh} />
      <Pagination page={current} pageCount={pageCount} onPage={setPage} />
    </section>
  );
}
