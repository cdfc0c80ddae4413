// Spec §2 Dashboard: refresh, the cards Total Orders, Total Revenue and Total Profit, the Orders
// table (Lifetime in bold, Past 7 Days, Past 24 Hours, Past 8 Hours), the Resellers and Packages
// sections, and two charts drawn at the width they have. Every figure comes summed from
// GET /api/dashboard; this view only lays them out.
import { useCallback, useEffect, useState } from "react";
import type { Dashboard } from "../../shared/dashboard-types.ts";
import { callApi } from "../lib/api.ts";
import {
  dollarsToDollarString,
  dollarsToShortTickString,
  dollarsToTickString,
} from "../lib/format.ts";
import { RefreshIcon } from "../lib/icons.tsx";
import BarChart, { type BarChartProps, CHART_GOLD, CHART_GREEN } from "./dashboard/BarChart.tsx";
import FiguresTable from "./dashboard/FiguresTable.tsx";
import ExclusionsForm from "./dashboard/ExclusionsForm.tsx";
import { SupplierBalanceCards } from "./operations/SupplierBalanceCards.tsx";
import type { AdminViewProps } from "./types.ts";
import "../../styles/admin-games.css";
import "../../styles/admin-dashboard.css";
import "../../styles/admin-operations.css";

export type DashboardViewProps = AdminViewProps;

const LOAD_FAILED = "Failed to load the dashboard. Please try again.";

/** Rows sorted by lifetime revenue, highest first, then by name. */
function byRevenue<T extends { name: string }>(rows: T[], revenue: (row: T) => number): T[] {
  return [...rows].sort((a, b) => revenue(b) - revenue(a) || a.name.localeCompare(b.name));
}

function Chart({ title, ...chart }: BarChartProps) {
  return (
    <figure class="db-chart">
      <figcaption>{title}</figcaption>
      <BarChart title={title} {...chart} />
    </figure>
  );
}

export default function DashboardView(_props: DashboardViewProps) {
  const [data, setData] = useState<Dashboard | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    setLoading(true);
    setFailed(false);
    callApi<Dashboard>("GET", "/api/dashboard")
      .then(setData)
      .catch((error) => {
        console.error(error);
        setFailed(true);
      })
      .finally(() => setLoading(false));
  }, []);
  useEffect(load, [load]);

  const resellers = data ? byRevenue(data.resellers, (r) => r.lifetime.revenue) : [];
  return (
    <section class="db" aria-busy={loading}>
      <div class="ag-heading">
        <h2>Dashboard</h2>
        <button
          type="button"
          class="btn-secondary db-refresh"
          onClick={load}
          disabled={loading}
          aria-label="Refresh"
        >
          <RefreshIcon /> Refresh
        </button>
      </div>
      {failed && <p class="db-banner" role="alert">{LOAD_FAILED}</p>}
      {!data && loading && <p class="muted">Loading</p>}
      {data && (
        <>
          <div class="db-cards">
            <div class="db-card">
              <span>Total Orders</span>
              <strong>{data.totals.orders.toLocaleString("en-US")}</strong>
            </div>
            <div class="db-card">
              <span>Total Revenue</span>
              <strong>{dollarsToDollarString(data.totals.revenue)}</strong>
            </div>
            <div class="db-card">
              <span>Total Profit</span>
              <strong>{dollarsToDollarString(data.totals.profit)}</strong>
            </div>
          </div>

          <h3>Orders</h3>
          <FiguresTable
            caption="Orders"
            captionHidden
            nameHeading="Period"
            rows={data.windows.map((w) => ({
              name: w.label,
              figures: w,
              bold: w.key === "lifetime",
            }))}
          />
          <div class="db-charts">
            <Chart
              title="Revenue and profit per day, last 30 days"
              labels={data.revenueByDay.map((b) => b.label)}
              series={[
                {
                  name: "Revenue",
                  colour: CHART_GOLD,
                  values: data.revenueByDay.map((b) => b.revenue),
                },
                {
                  name: "Profit",
                  colour: CHART_GREEN,
                  values: data.revenueByDay.map((b) => b.profit),
                },
              ]}
              format={dollarsToDollarString}
              tickFormats={[dollarsToTickString, dollarsToShortTickString]}
              minStep={0.01}
            />
            <Chart
              title="Orders per hour, last 24 hours"
              labels={data.ordersByHour.map((b) => b.label)}
              series={[{
                name: "Orders",
                colour: CHART_GOLD,
                values: data.ordersByHour.map((b) => b.orders),
              }]}
              format={String}
              tickFormats={[String]}
              minStep={1}
            />
          </div>

          <h3>Supplier Balances</h3>
          <SupplierBalanceCards balances={data.supplierBalances} />

          <h3>Resellers</h3>
          <div
            class="ag-scroll db-balances"
            tabIndex={0}
            role="region"
            aria-label="Account Balance"
          >
            <table class="ag-table">
              <caption>Account Balance</caption>
              <thead>
                <tr>
                  <th scope="col">Reseller</th>
                  <th scope="col">Account Balance</th>
                </tr>
              </thead>
              <tbody>
                {data.resellers.map((r) => (
                  <tr key={r._id}>
                    <th scope="row">{r.name}</th>
                    <td>{dollarsToDollarString(r.balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <FiguresTable
            caption="Lifetime"
            nameHeading="Reseller"
            rows={resellers.map((r) => ({ name: r.name, figures: r.lifetime }))}
          />
          <FiguresTable
            caption="Past 24 Hours"
            nameHeading="Reseller"
            rows={byRevenue(resellers, (r) => r.past24Hours.revenue).map((r) => ({
              name: r.name,
              figures: r.past24Hours,
            }))}
          />

          <h3>Packages</h3>
          <FiguresTable
            caption="Lifetime"
            nameHeading="Package"
            rows={data.packages.map((p) => ({ name: p.label, figures: p.lifetime }))}
          />
          <FiguresTable
            caption="Past 24 Hours"
            nameHeading="Package"
            rows={data.packages.map((p) => ({ name: p.label, figures: p.past24Hours }))}
          />

          <ExclusionsForm saved={data.exclusions} onSaved={load} />
        </>
      )}
    </section>
  );
}
