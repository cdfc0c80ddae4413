// Where everything of a dashboard bar chart goes, for the width the chart really has on screen:
// the legend wraps inside it, the y axis gets as much room as its widest tick label (shortened when
// the full labels would take more than an eighth of the chart), and the x axis labels only as many
// buckets as fit side by side, counted back from the latest. Pure, so the rules are unit-tested;
// BarChart.tsx draws the result and measures the text with the page's font.

/** One series of bars. */
export interface ChartSeries {
  name: string;
  colour: string;
  values: number[];
}

export interface ChartInput {
  /** The chart's width in CSS pixels (the SVG is drawn at 1:1, so text keeps its font size). */
  width: number;
  height: number;
  /** One label per bucket. */
  labels: string[];
  series: ChartSeries[];
  /** Tick label formats, fullest first: the first whose widest label takes an eighth or less. */
  tickFormats: ((value: number) => string)[];
  /** The smallest gap between ticks (1 for counts, so no tick reads 0.5 orders). */
  minStep?: number;
  /** The width in pixels of a text at the chart's font size. */
  textWidth: (text: string) => number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartLayout {
  legend: { colour: string; name: string; swatch: Box; textX: number; textY: number }[];
  /** The plot's edges (grid lines run from `left` to `right`). */
  plot: { left: number; right: number; top: number; bottom: number };
  /** One grid line and right-aligned label (ending at `x`) per tick; `zero` is the axis. */
  ticks: { y: number; x: number; label: string; zero: boolean }[];
  bars: (Box & { colour: string; bucket: number; series: number })[];
  /** The labelled buckets, each label centred on `x` at the baseline `y`. */
  xLabels: { x: number; y: number; label: string; bucket: number }[];
}

/** Line height of one text row; the font size is BarChart.tsx's. */
const LINE = 18;
const SWATCH = 12;
/** Space between two labels, and between a label and what it names. */
const GAP = 8;
const TARGET_TICKS = 4;

/** A round step (1, 2 or 5 × 10^n) so that about `count` steps cover `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
}

/** Legend items left to right, wrapping to a new row where the next would not fit. */
function layoutLegend(input: ChartInput): { items: ChartLayout["legend"]; height: number } {
  const items: ChartLayout["legend"] = [];
  let x = 0;
  let row = 0;
  for (const s of input.series) {
    const w = SWATCH + GAP / 2 + input.textWidth(s.name);
    if (x > 0 && x + w > input.width) {
      x = 0;
      row++;
    }
    const y = row * LINE;
    items.push({
      colour: s.colour,
      name: s.name,
      swatch: { x, y: y + (LINE - SWATCH) / 2, width: SWATCH, height: SWATCH },
      textX: x + SWATCH + GAP / 2,
      textY: y + LINE / 2,
    });
    x += w + 2 * GAP;
  }
  return { items, height: (row + 1) * LINE };
}

/** Lays out a grouped bar chart (one group per label, one bar per series) in `width` × `height`. */
export function layoutBarChart(input: ChartInput): ChartLayout {
  const { width, height, labels, series, textWidth } = input;
  const legend = layoutLegend(input);
  const top = legend.height + GAP + LINE / 2;
  const bottom = height - LINE - GAP / 2;

  const all = series.flatMap((s) => s.values);
  const low = Math.min(0, ...all);
  const high = Math.max(0, ...all);
  // A short plot gets fewer ticks, so their labels never touch.
  const count = Math.max(2, Math.min(TARGET_TICKS, Math.floor((bottom - top) / (2 * LINE))));
  const step = Math.max(high - low > 0 ? niceStep(high - low, count) : 1, input.minStep ?? 0);
  // Ticks are whole multiples of the step, so the zero line is exactly 0.
  const first = Math.floor(low / step);
  const last = Math.ceil(high / step) || 1;
  const values: number[] = [];
  for (let j = first; j <= last; j++) values.push(j * step);
  const minTick = first * step;
  const maxTick = last * step;
  const format =
    input.tickFormats.find((f) => Math.max(...values.map((v) => textWidth(f(v)))) <= width / 8) ??
      input.tickFormats[input.tickFormats.length - 1];
  const tickLabels = values.map(format);
  const left = Math.max(...tickLabels.map(textWidth)) + GAP;

  // The latest label is centred on its bucket like the others, so the plot leaves room for its
  // right half.
  const lastLabel = labels.length > 0 ? textWidth(labels[labels.length - 1]) : 0;
  const right = width - Math.max(GAP / 2, lastLabel / 2);
  const y = (v: number) => top + ((maxTick - v) / (maxTick - minTick)) * (bottom - top);
  const ticks = values.map((v, i) => ({
    y: y(v),
    x: left - GAP / 2,
    label: tickLabels[i],
    zero: v === 0,
  }));

  const groupW = (right - left) / Math.max(1, labels.length);
  const barW = Math.max(1, (groupW * 0.8) / Math.max(1, series.length));
  const bars = labels.flatMap((_, bucket) =>
    series.map((s, k) => {
      const v = s.values[bucket] ?? 0;
      return {
        x: left + bucket * groupW + groupW * 0.1 + k * barW,
        y: y(Math.max(0, v)),
        width: barW,
        height: Math.abs(y(v) - y(0)),
        colour: s.colour,
        bucket,
        series: k,
      };
    })
  );

  // Every n-th bucket back from the latest, n the fewest buckets the widest label and a gap span;
  // a label that would stick out of the chart on the left is left out.
  const widest = Math.max(0, ...labels.map(textWidth));
  const every = Math.max(1, Math.ceil((widest + GAP) / groupW));
  const xLabels: ChartLayout["xLabels"] = [];
  labels.forEach((label, bucket) => {
    const x = left + (bucket + 0.5) * groupW;
    if ((labels.length - 1 - bucket) % every !== 0 || x - textWidth(label) / 2 < 0) return;
    xLabels.push({ x, y: height - GAP / 2, label, bucket });
  });

  return {
    legend: legend.items,
    plot: { left, right, top, bottom },
    ticks,
    bars,
    xLabels,
  };
}
