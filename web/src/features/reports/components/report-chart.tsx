import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  /** Readable on both the dark and the light theme. */
  color: string;
}

const HEIGHT = 220;

/** A theme colour of the page, read when the chart is built. */
function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/**
 * A uPlot line chart that fills its container's width and follows it when it resizes. Times on
 * the x axis are shown in the report's time zone. The chart is always drawn left to right.
 */
export function ReportChart({ title, series, columns, timeZone }: { title: string; series: ChartSeries[]; columns: number[][]; timeZone: string }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = box.current;
    if (!container) return;
    const text = themeColor('--muted', '#888');
    const grid = themeColor('--border', '#8884');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(container.clientWidth, 200),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timeZone),
        scales: { x: { time: true } },
        axes: [axis, { ...axis, size: 44 }],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 5 } }))],
      },
      columns as uPlot.AlignedData,
      container,
    );
    const resize = () => plot.setSize({ width: Math.max(container.clientWidth, 200), height: HEIGHT });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(resize);
    observer?.observe(container);
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [series, columns, timeZone]);

  return (
    <section className="report-chart panel-card" aria-label={title}>
      <h2>{title}</h2>
      <div ref={box} className="report-chart-canvas" dir="ltr" />
    </section>
  );
}
