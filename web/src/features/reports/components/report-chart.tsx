import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { tickSteps } from '../report-view';

export interface ChartSeries {
  label: string;
  /** Readable on both the dark and the light theme. */
  color: string;
}

const HEIGHT = 220;

/** A theme colour of the page, read each time the chart draws. */
const themeColor = (name: string, fallback: string) => () => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/**
 * A uPlot line chart that fills its container's width and follows it when it resizes, and draws
 * again in the new colours when the theme changes. Times on the x axis are shown in the report's
 * time zone. The chart is always drawn left to right.
 */
export function ReportChart({
  title,
  series,
  columns,
  timeZone,
  bucket,
}: {
  title: string;
  series: ChartSeries[];
  columns: number[][];
  timeZone: string;
  bucket: 'hour' | 'day';
}) {
  const { t, i18n } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const timeLabel = t('reports.time');
  const language = i18n.language;

  useEffect(() => {
    const container = box.current;
    if (!container) return;
    const text = themeColor('--muted', '#888');
    const grid = themeColor('--border', '#8884');
    const tick = new Intl.DateTimeFormat(language, {
      timeZone,
      ...(bucket === 'hour' ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short' }),
    });
    const full = new Intl.DateTimeFormat(language, { timeZone, dateStyle: 'medium', ...(bucket === 'hour' ? { timeStyle: 'short' } : {}) });
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(container.clientWidth, 200),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timeZone),
        scales: { x: { time: true } },
        axes: [{ ...axis, incrs: tickSteps(bucket), values: (_, splits) => splits.map((ts) => tick.format(ts * 1000)) }, { ...axis, size: 44 }],
        series: [{ label: timeLabel, value: (_, ts) => (ts === null ? '—' : full.format(ts * 1000)) }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 5 } }))],
      },
      columns as uPlot.AlignedData,
      container,
    );
    const resize = () => plot.setSize({ width: Math.max(container.clientWidth, 200), height: HEIGHT });
    const sizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(resize);
    sizes?.observe(container);
    const theme = new MutationObserver(() => plot.redraw());
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      sizes?.disconnect();
      theme.disconnect();
      plot.destroy();
    };
  }, [series, columns, timeZone, bucket, language, timeLabel]);

  return (
    <section className="report-chart panel-card" aria-label={title}>
      <h2>{title}</h2>
      <div ref={box} className="report-chart-canvas" dir="ltr" />
    </section>
  );
}
