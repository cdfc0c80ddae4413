import assert from "node:assert/strict";
import {
  type ChartInput,
  type ChartLayout,
  layoutBarChart,
} from "../../src/islands/admin/dashboard/chart-layout.ts";
import { windowParts } from "../../src/domain/admin/dashboard.ts";

/** About the width of system-ui at 12 px: 7 px a character. */
const textWidth = (text: string) => text.length * 7;
const DAYS = Array.from({ length: 30 }, (_, i) => `${(i % 28) + 1} ${i < 28 ? "Oct" : "Nov"}`);

const layout = (overrides: Partial<ChartInput>): ChartLayout =>
  layoutBarChart({
    width: 480,
    height: 240,
    labels: DAYS,
    series: [{ name: "Revenue", colour: "#d1aa64", values: DAYS.map((_, i) => i * 500) }],
    tickFormats: [(v) => `$${v.toLocaleString("en-US")}`, (v) => v ? `$${v / 1000}K` : "$0"],
    textWidth,
    ...overrides,
  });

/** The horizontal extent of each x label. */
const spans = (chart: ChartLayout) =>
  chart.xLabels.map((l) => {
    const w = textWidth(l.label);
    return { from: l.x - w / 2, to: l.x + w / 2, bucket: l.bucket };
  });

Deno.test("[dashboard chart] x labels never touch and stay inside the chart at any width", () => {
  for (let width = 240; width <= 1200; width += 5) {
    const chart = layout({ width });
    const boxes = spans(chart);
    assert.ok(boxes.length >= 2, `${width}px: ${boxes.length} labels`);
    assert.equal(boxes.at(-1)!.bucket, DAYS.length - 1, `${width}px: the latest is labelled`);
    assert.ok(boxes[0].from >= 0 && boxes.at(-1)!.to <= width, `${width}px: inside the chart`);
    for (let i = 1; i < boxes.length; i++) {
      assert.ok(boxes[i].from >= boxes[i - 1].to + 4, `${width}px: labels ${i - 1} and ${i}`);
    }
  }
});

Deno.test("[dashboard chart] a wide chart labels every bucket, counted back from the latest", () => {
  const chart = layout({ width: 2000, labels: ["a", "b", "c", "d", "e"] });
  assert.deepEqual(chart.xLabels.map((l) => l.label), ["a", "b", "c", "d", "e"]);
  const narrow = layout({ width: 140, labels: ["a1", "b1", "c1", "d1", "e1"] });
  assert.deepEqual(narrow.xLabels.map((l) => l.label), ["a1", "c1", "e1"]);
});

Deno.test("[dashboard chart] the y labels get their room, shortened on a narrow chart", () => {
  const wide = layout({ width: 600 });
  assert.deepEqual(wide.ticks.map((t) => t.label), ["$0", "$5,000", "$10,000", "$15,000"]);
  const narrow = layout({ width: 300 });
  assert.deepEqual(narrow.ticks.map((t) => t.label), ["$0", "$5K", "$10K", "$15K"]);
  for (const chart of [wide, narrow]) {
    for (const tick of chart.ticks) {
      // Right-aligned at tick.x: the label starts inside the chart and ends before the plot.
      assert.ok(tick.x - textWidth(tick.label) >= 0, tick.label);
      assert.ok(tick.x < chart.plot.left, tick.label);
    }
  }
});

Deno.test("[dashboard chart] the legend wraps to stay inside the chart, above the plot", () => {
  const chart = layout({
    width: 240,
    series: ["Revenue this period", "Profit this period", "Cost"].map((name) => ({
      name,
      colour: "#4caf50",
      values: [1, 2],
    })),
  });
  assert.equal(chart.legend.length, 3);
  for (const item of chart.legend) {
    assert.ok(item.swatch.x >= 0 && item.textX + textWidth(item.name) <= 240, item.name);
    assert.ok(item.swatch.y + item.swatch.height < chart.plot.top, item.name);
  }
  assert.ok(new Set(chart.legend.map((item) => item.textY)).size > 1, "it wrapped");
});

Deno.test("[dashboard chart] a loss is drawn below the zero line, counts tick in whole numbers", () => {
  const chart = layout({
    labels: ["a", "b"],
    series: [{ name: "Profit", colour: "#4caf50", values: [-2, 1] }],
    tickFormats: [String],
    minStep: 1,
  });
  const zero = chart.ticks.find((t) => t.zero)!;
  const [loss, gain] = chart.bars;
  assert.equal(loss.y, zero.y);
  assert.ok(loss.height > 0);
  assert.equal(gain.y + gain.height, zero.y);
  assert.deepEqual(chart.ticks.map((t) => t.label), ["-2", "-1", "0", "1"]);
});

Deno.test("[dashboard windows] whole days from the daily totals, partial days order by order", () => {
  const H = 3_600_000;
  // 12:00 UTC is 20:00 in Singapore; its day started at 16:00 UTC the day before.
  const now = new Date("2026-11-23T12:00:00Z");
  const end = new Date(now.getTime() + 1);
  assert.deepEqual(windowParts(new Date(now.getTime() - 8 * H), end), {
    orders: [{ from: new Date("2026-11-23T04:00:00Z"), to: end }],
  });
  assert.deepEqual(windowParts(new Date(now.getTime() - 168 * H), end), {
    days: { from: new Date("2026-11-16T16:00:00Z"), to: new Date("2026-11-22T16:00:00Z") },
    orders: [
      { from: new Date("2026-11-16T12:00:00Z"), to: new Date("2026-11-16T16:00:00Z") },
      { from: new Date("2026-11-22T16:00:00Z"), to: end },
    ],
  });
  const dayStart = new Date("2025-04-03T16:00:00Z");
  assert.deepEqual(windowParts(dayStart, end), {
    days: { from: dayStart, to: new Date("2026-11-22T16:00:00Z") },
    orders: [{ from: new Date("2026-11-22T16:00:00Z"), to: end }],
  });
});
