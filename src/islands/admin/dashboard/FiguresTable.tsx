// One dashboard table: a first column naming each row, then Orders, Average Order, Revenue, Cost,
// Profit and Margin (spec §2 Dashboard; margin with two decimals, spec §9). Where the seven columns
// do not fit, each row stacks its figures under their headings (admin-dashboard.css, data-label).
import type { DashboardFigures } from "../../../shared/dashboard-types.ts";
import { dollarsToDollarString } from "../../lib/format.ts";

export interface FiguresRow {
  /** What the row is: a window, a reseller or a package. */
  name: string;
  figures: DashboardFigures;
  /** Shown in bold (the Lifetime row). */
  bold?: boolean;
}

export interface FiguresTableProps {
  /** The table's caption, e.g. 'Lifetime'. */
  caption: string;
  /** Keeps the caption for screen readers only (when a heading already says it). */
  captionHidden?: boolean;
  /** The heading of the first column. */
  nameHeading: string;
  rows: FiguresRow[];
}

/** A table of order figures, one row per window, reseller or package. */
export default function FiguresTable(
  { caption, captionHidden, nameHeading, rows }: FiguresTableProps,
) {
  return (
    <div
      class="ag-scroll db-figures-box"
      tabIndex={0}
      role="region"
      aria-label={`${caption} (${nameHeading})`}
    >
      <table class="ag-table db-figures">
        <caption class={captionHidden ? "db-sr-only" : undefined}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{nameHeading}</th>
            <th scope="col">Orders</th>
            <th scope="col">Average Order</th>
            <th scope="col">Revenue</th>
            <th scope="col">Cost</th>
            <th scope="col">Profit</th>
            <th scope="col">Margin</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ name, figures: f, bold }) => (
            <tr key={name} class={bold ? "db-bold" : undefined}>
              <th scope="row">{name}</th>
              <td data-label="Orders">{f.orders.toLocaleString("en-US")}</td>
              <td data-label="Average Order">{dollarsToDollarString(f.averageOrder)}</td>
              <td data-label="Revenue">{dollarsToDollarString(f.revenue)}</td>
              <td data-label="Cost">{dollarsToDollarString(f.cost)}</td>
              <td data-label="Profit">{dollarsToDollarString(f.profit)}</td>
              <td data-label="Margin">{f.margin.toFixed(2)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
