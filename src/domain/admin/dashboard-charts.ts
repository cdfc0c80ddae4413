// The dashboard's two charts as SVG markup, drawn on the server (no chart library): revenue and
// profit per day as bars, orders per hour as bars. Pure: the same data always gives the same
// markup. Colours are the dark theme's (global.css): gold and green on the page's dark panel, light
// grey labels, so both charts read on the console's background.
import { escapeHtml } from "../../shared/html.ts";

/** One series of bars. */
export interface ChartSeries {
  name: string;
  colour: string;
  values: number[];
}

export interface BarChart {
  /** The chart's accessible title. */
  title: string;
  /** One label per bucket. */
  labels: string[];
  /** Show every n-th label on the x axis, counted back from the latest (the rest are in tooltips). */
  labelEvery: number;
  series: ChartSeries[];
  /** Formats a value in a bar's tooltip. */
  format: (value: number) => string;
  /** Formats a y-axis tick (default: format). */
  formatTick?: (value: number) => string;
  /** The smallest gap between ticks (1 for counts, so no tick reads 0.5 orders). */
  minStep?: number;
}

const WIDTH = 520;
const HEIGHT = 250;
const PAD = { top: 32, right: 8, bottom: 30, left: 58 };
const TICKS = 4;
export const CHART_GOLD = "#d1aa64";
export const CHART_GREEN = "#4caf50";
const AXIS = "#a9a9a9";
const GRID = "#3a3a3a";

/** A round step (1, 2 or 5 × 10^n) so that TICKS steps cover `max`. */
function niceStep(max: number): number {
  const raw = max / TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return step;
}

/** Grouped bars (one group per label, one bar per series) with a y axis, x labels and a legend. */
export function renderBarChart(chart: BarChart): string {
  const all = chart.series.flatMap((s) => s.values);
  const low = Math.min(0, ...all);
  const high = Math.max(0, ...all);
  const step = Math.max(high - low > 0 ? niceStep(high - low) : 1, chart.minStep ?? 0);
  const top = Math.ceil(high / step) * step || step;
  const bottom = Math.floor(low / step) * step;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + ((top - v) / (top - bottom)) * plotH;
  const groupW = plotW / Math.max(1, chart.labels.length);
  const barW = Math.max(1, (groupW * 0.8) / chart.series.length);
  const parts: string[] = [];

  for (let tick = bottom; tick <= top + step / 2; tick += step) {
    const ty = y(tick).toFixed(1);
    parts.push(
      `<line x1="${PAD.left}" y1="${ty}" x2="${WIDTH - PAD.right}" y2="${ty}" stroke="${
        tick === 0 ? AXIS : GRID
      }" stroke-width="1"/>`,
      `<text x="${PAD.left - 6}" y="${ty}" dy="0.35em" text-anchor="end">${
        escapeHtml((chart.formatTick ?? chart.format)(tick))
      }</text>`,
    );
  }
  chart.labels.forEach((label, i) => {
    const gx = PAD.left + i * groupW + groupW * 0.1;
    chart.series.forEach((s, k) => {
      const v = s.values[i] ?? 0;
      const y0 = y(Math.max(0, v));
      const h = Math.abs(y(v) - y(0));
      parts.push(
        `<rect x="${(gx + k * barW).toFixed(1)}" y="${y0.toFixed(1)}" width="${
          barW.toFixed(1)
        }" height="${h.toFixed(1)}" fill="${s.colour}"><title>${
          escapeHtml(`${label} · ${s.name}: ${chart.format(v)}`)
        }</title></rect>`,
      );
    });
    if ((chart.labels.length - 1 - i) % chart.labelEvery === 0) {
      // The latest label ends at the plot's edge instead of being centred past it.
      const last = i === chart.labels.length - 1;
      const x = PAD.left + (last ? i + 1 : i + 0.5) * groupW;
      parts.push(
        `<text x="${x.toFixed(1)}" y="${HEIGHT - PAD.bottom + 20}" text-anchor="${
          last ? "end" : "middle"
        }">${escapeHtml(label)}</text>`,
      );
    }
  });
  let lx = PAD.left;
  for (const s of chart.series) {
    parts.push(
      `<rect x="${lx}" y="6" width="14" height="14" rx="2" fill="${s.colour}"/>`,
      `<text x="${lx + 20}" y="13" dy="0.35em">${escapeHtml(s.name)}</text>`,
    );
    lx += 36 + s.name.length * 9;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" ` +
    `aria-label="${escapeHtml(chart.title)}" font-family="system-ui, sans-serif" font-size="15" ` +
    `fill="${AXIS}"><title>${escapeHtml(chart.title)}</title>${parts.join("")}</svg>`;
}
