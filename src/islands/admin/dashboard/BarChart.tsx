// A dashboard bar chart drawn as SVG at the width its panel has (no chart library): it follows the
// panel as the window resizes, so on a phone the y axis, the legend and the latest x label stay in
// sight at a readable size instead of the chart shrinking or scrolling sideways. The layout rules
// are in chart-layout.ts; this component measures the text and draws.
import { useEffect, useRef, useState } from "react";
import { type ChartSeries, layoutBarChart } from "./chart-layout.ts";

export interface BarChartProps {
  /** The chart's accessible name. */
  title: string;
  /** One label per bucket, oldest first. */
  labels: string[];
  series: ChartSeries[];
  /** Formats a value in a bar's tooltip. */
  format: (value: number) => string;
  /** Tick label formats, fullest first (chart-layout.ts picks the first that fits). */
  tickFormats: ((value: number) => string)[];
  /** The smallest gap between ticks. */
  minStep?: number;
}

export const CHART_GOLD = "#d1aa64";
export const CHART_GREEN = "#4caf50";
const AXIS = "#a9a9a9";
const GRID = "#3a3a3a";
const FONT_PX = 12;
const HEIGHT = 240;

/** Text widths at the chart's font size in the font the page really uses. */
function textMeasurer(element: Element): (text: string) => number {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return (text) => text.length * FONT_PX * 0.6;
  context.font = `${FONT_PX}px ${getComputedStyle(element).fontFamily}`;
  return (text) => context.measureText(text).width;
}

export default function BarChart(
  { title, labels, series, format, tickFormats, minStep }: BarChartProps,
) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(box.current!);
    return () => observer.disconnect();
  }, []);

  const layout = width > 0
    ? layoutBarChart({
      width,
      height: HEIGHT,
      labels,
      series,
      tickFormats,
      minStep,
      textWidth: textMeasurer(box.current!),
    })
    : null;
  return (
    <div ref={box} class="db-chart-body" style={{ height: `${HEIGHT}px` }}>
      {layout && (
        <svg
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          role="img"
          aria-label={title}
          font-size={FONT_PX}
          fill={AXIS}
        >
          <title>{title}</title>
          <g class="db-legend">
            {layout.legend.map((item) => (
              <g key={item.name}>
                <rect {...item.swatch} rx="2" fill={item.colour} />
                <text x={item.textX} y={item.textY} dominant-baseline="central">{item.name}</text>
              </g>
            ))}
          </g>
          <g class="db-y-axis">
            {layout.ticks.map((tick) => (
              <g key={tick.label}>
                <line
                  x1={layout.plot.left}
                  x2={layout.plot.right}
                  y1={tick.y}
                  y2={tick.y}
                  stroke={tick.zero ? AXIS : GRID}
                />
                <text x={tick.x} y={tick.y} text-anchor="end" dominant-baseline="central">
                  {tick.label}
                </text>
              </g>
            ))}
          </g>
          <g>
            {layout.bars.map((bar) => (
              <rect
                key={`${bar.bucket}-${bar.series}`}
                x={bar.x}
                y={bar.y}
                width={bar.width}
                height={bar.height}
                fill={bar.colour}
              >
                <title>
                  {`${labels[bar.bucket]} · ${series[bar.series].name}: ${
                    format(series[bar.series].values[bar.bucket] ?? 0)
                  }`}
                </title>
              </rect>
            ))}
          </g>
          <g class="db-x-axis">
            {layout.xLabels.map((label) => (
              <text key={label.bucket} x={label.x} y={label.y} text-anchor="middle">
                {label.label}
              </text>
            ))}
          </g>
        </svg>
      )}
    </div>
  );
}
