// The suppliers' prepaid balances, each with its week's trend as a small line drawn
// from the readings, the change over 24 hours and the alert threshold. The dashboard and the
// Operations screen show the same cards.
import type { SupplierBalanceDto } from "../../../shared/operations-types.ts";
import { formatDate } from "../../lib/order-format.ts";

const WIDTH = 160;
const HEIGHT = 40;

/** The readings as an SVG line, the threshold dashed; nothing to draw below two readings. */
function Trend({ balance }: { balance: SupplierBalanceDto }) {
  const points = balance.trend;
  if (points.length < 2) return <p class="muted op-trend-none">Trend after two hourly readings</p>;
  const values = [...points.map((p) => p.balance), balance.threshold];
  const min = Math.min(...values);
  const span = Math.max(...values) - min || 1;
  const x = (i: number) => (i / (points.length - 1)) * WIDTH;
  const y = (v: number) => HEIGHT - 2 - ((v - min) / span) * (HEIGHT - 4);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.balance).toFixed(1)}`).join(" ");
  return (
    <svg
      class="op-trend"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`${balance.name} balance over the past week, ${points.length} hourly readings`}
    >
      <line
        class="op-trend-threshold"
        x1="0"
        x2={WIDTH}
        y1={y(balance.threshold)}
        y2={y(balance.threshold)}
      />
      <polyline class={balance.low ? "op-trend-line op-low" : "op-trend-line"} points={line} />
    </svg>
  );
}

function amount(value: number, currency: string): string {
  return `${
    value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  } ${currency}`;
}

function change(value: number, currency: string): string {
  return `${value >= 0 ? "+" : "−"}${amount(Math.abs(value), currency)} in 24 h`;
}

export function SupplierBalanceCards({ balances }: { balances: SupplierBalanceDto[] }) {
  return (
    <div class="op-balances">
      {balances.map((b) => (
        <article
          key={b.vendor}
          class={b.low ? "db-card op-balance op-balance-low" : "db-card op-balance"}
          aria-label={`${b.name} balance`}
        >
          <header>
            <h4>{b.name}</h4>
            {b.low && <span class="op-badge op-badge-bad">Below threshold</span>}
          </header>
          <strong>{b.balance === null ? "Not read yet" : amount(b.balance, b.currency)}</strong>
          <span class="muted">
            {b.change24h === null ? "No reading a day earlier" : change(b.change24h, b.currency)}
          </span>
          <Trend balance={b} />
          <span class="muted">
            Alert below {amount(b.threshold, b.currency)}
            {b.readAt && ` · read ${formatDate(b.readAt)}`}
          </span>
        </article>
      ))}
    </div>
  );
}
