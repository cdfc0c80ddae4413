// Spec §2 Admin console 'Orders': tabs Resellers and Consumers, search 'Search order...', Refresh
// All Status when more than one order is new or pending, Export, a Loading overlay until orders
// arrive, 20 rows a page. The server searches and pages (GET /api/orders): the browser never holds
// more than the page shown. A third tab, Needs review, holds the orders waiting for an
// operator and the failed jobs; its count is fetched as the view opens, so it shows on every tab.
import { useEffect, useRef, useState } from "react";
import type {
  AdminOrderDto,
  AdminOrdersPage,
  OrderBuyerType,
  ReviewOrderDto,
} from "../../shared/order-types.ts";
import { callApi } from "../lib/api.ts";
import { ConfirmDialog } from "../lib/ConfirmDialog.tsx";
import { failureText } from "../lib/order-format.ts";
import { Pagination } from "../lib/Pagination.tsx";
import { OrdersHeading, requestStatusRefresh } from "../lib/OrdersHeading.tsx";
import { TabList } from "../lib/TabList.tsx";
import { useLoad } from "../lib/use-load.ts";
import { useNarrow } from "../lib/viewport.ts";
import type { AdminViewProps } from "./types.ts";
import { AdminOrdersTable } from "./orders/AdminOrdersTable.tsx";
import { NeedsReviewTab } from "./orders/NeedsReviewTab.tsx";
import "../../styles/admin-games.css";
import "../../styles/admin-users.css";
import "../../styles/orders-table.css";
import "../../styles/admin-orders.css";

export type OrdersViewProps = AdminViewProps;

type OrdersTab = OrderBuyerType | "review";

/** The Needs review tab's label, with how many orders wait when any do. */
function tabsWithReview(waiting: number): { key: OrdersTab; label: string }[] {
  return [
    { key: "reseller", label: "Resellers" },
    { key: "consumer", label: "Consumers" },
    { key: "review", label: waiting > 0 ? `Needs review (${waiting})` : "Needs review" },
  ];
}

async function fetchReviewQueue(): Promise<ReviewOrderDto[]> {
  return (await callApi<{ orders: ReviewOrderDto[] }>("GET", "/api/orders/review")).orders;
}

/** Wait after the last keystroke before searching, so typing does not send a call per letter. */
const SEARCH_DELAY_MS = 250;

/** Spec §9: pagination sibling range 2 on desktop, 1 below 768 px, 0 below 465 px. */
function useSiblingRange(): number {
  const below768 = useNarrow(767);
  const below465 = useNarrow(464);
  return below465 ? 0 : below768 ? 1 : 2;
}

export default function OrdersView({ mobile }: OrdersViewProps) {
  const [tab, setTab] = useState<OrdersTab>("reseller");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<AdminOrdersPage | null>(null);
  // The tab the rows shown belong to: the previous tab's rows stay under the overlay until the
  // new ones arrive, with their own columns.
  const [shownTab, setShownTab] = useState<OrderBuyerType>("reseller");
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);
  const [refreshing, setRefreshing] = useState<string | null>(null);
  const [settling, setSettling] = useState<{ order: AdminOrderDto; cancel: boolean } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);
  const siblings = useSiblingRange();
  const review = useLoad(fetchReviewQueue, "review", "get orders in review");

  useEffect(() => {
    if (tab === "review") return;
    setLoading(true);
    const call = ++latest.current;
    const query = new URLSearchParams({
      buyerType: tab,
      search: search.trim(),
      page: String(page),
    });
    const timer = setTimeout(() => {
      callApi<AdminOrdersPage>("GET", `/api/orders?${query}`)
        .then((answer) => {
          if (call !== latest.current) return;
          setData(answer);
          setShownTab(tab);
        })
        .catch((error) => {
          console.error(error);
          alert(failureText("get orders", error));
        })
        .finally(() => call === latest.current && setLoading(false));
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [tab, search, page, version]);

  const refresh = async (order: AdminOrderDto | null) => {
    setRefreshing(order?.id ?? "all");
    try {
      await requestStatusRefresh(order);
    } catch (error) {
      console.error(error);
      alert(failureText("refresh order status", error));
    }
    setRefreshing(null);
    setVersion((v) => v + 1);
  };

  const settle = async () => {
    if (!settling) return;
    setBusy(true);
    try {
      await callApi(
        "POST",
        `/api/orders/${encodeURIComponent(settling.order.id)}/confirm-payment`,
        { cancel: settling.cancel },
      );
    } catch (error) {
      console.error(error);
      alert(failureText(settling.cancel ? "cancel order" : "confirm payment", error));
    } finally {
      setBusy(false);
      setSettling(null);
      setVersion((v) => v + 1);
    }
  };

  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const exportQuery = new URLSearchParams({ buyerType: tab, search: search.trim() });

  return (
    <section class={mobile ? "ao-orders ag-mobile" : "ao-orders"}>
      {tab === "review"
        ? (
          <div class="rs-heading">
            <h2>Orders</h2>
          </div>
        )
        : (
          <OrdersHeading
            search={search}
            onSearch={(text) => {
              setSearch(text);
              setPage(1);
            }}
            openCount={data?.openCount ?? 0}
            refreshing={refreshing}
            onRefreshAll={() => refresh(null)}
            exportHref={`/api/orders/export?${exportQuery}`}
          />
        )}
      <TabList
        label="Orders"
        items={tabsWithReview(review.state === "ready" ? review.value.length : 0)}
        current={tab}
        onSelect={(key) => {
          setTab(key);
          setPage(1);
          if (key === "review") review.reload();
        }}
      />
      {tab === "review" ? <NeedsReviewTab queue={review} onReload={review.reload} /> : (
        <>
          <div role="tabpanel" class="ao-panel" aria-busy={loading}>
            {refreshing !== null && <p class="muted" role="status">Refreshing order status...</p>}
            {data && (
              <AdminOrdersTable
                buyerType={shownTab}
                orders={data.orders}
                refreshing={refreshing}
                onRefresh={refresh}
                onSettle={(order, cancel) => setSettling({ order, cancel })}
              />
            )}
            {loading && (
              <div class="ao-overlay" role="status">
                <span class="rs-spinner" aria-hidden="true" />Loading...
              </div>
            )}
          </div>
          {data && (
            <Pagination
              page={data.page}
              pageCount={pageCount}
              onPage={setPage}
              siblings={siblings}
            />
          )}
        </>
      )}
      {settling && (
        <ConfirmDialog
          message={settling.cancel
            ? `Cancel order ${settling.order.id}? Its manual payment never came.`
            : `Confirm the manual payment of order ${settling.order.id}? It goes to the supplier.`}
          confirmLabel={settling.cancel ? "Cancel Order" : "Confirm Payment"}
          tone={settling.cancel ? "danger" : "primary"}
          busy={busy}
          onConfirm={settle}
          onCancel={() => setSettling(null)}
        />
      )}
    </section>
  );
}
