import assert from "node:assert/strict";
import { renderBarChart } from "../../src/domain/admin/dashboard-charts.ts";
import { windowParts } from "../../src/domain/admin/dashboard.ts";

const chart = (values: number[], labels = values.map((_, i) => `d${i}`)) =>
  renderBarChart({
    title: "T <b>",
    labels,
    labelEvery: 2,
    series: [{ name: "Profit", colour: "#4caf50", values }],
    format: String,
    minStep: 1,
  });

Deno.test("[dashboard chart] text is escaped, so a name cannot inject markup", () => {
  const svg = chart([1], ["<script>alert(1)</script>"]);
  assert.ok(!svg.includes("<script>"));
  assert.match(svg, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(svg, /aria-label="T &lt;b&gt;"/);
});

Deno.test("[dashboard chart] the latest bucket is always labelled, then every n-th back", () => {
  const svg = chart([1, 2, 3, 4, 5]);
  const labels = [...svg.matchAll(/text-anchor="(?:middle|end)">(d\d)</g)].map((m) => m[1]);
  assert.deepEqual(labels, ["d0", "d2", "d4"]);
});

Deno.test("[dashboard chart] a loss is drawn below the zero line, counts tick in whole numbers", () => {
  const svg = chart([-2, 1]);
  const zero = Number(svg.match(/y1="([\d.]+)"[^>]*stroke="#a9a9a9"/)![1]);
  const loss = svg.match(/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/)!;
  assert.equal(Number(loss[1]), zero);
  assert.ok(Number(loss[2]) > 0);
  assert.ok(![...svg.matchAll(/text-anchor="end">([^<]+)</g)].some((m) => m[1].includes(".")));
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
