// What the reports page shows, apart from drawing: ranges, chart series and number formats.
import type { Overview, OverviewParams, ReportNumbers } from './api/reports-api';

export type Preset = 7 | 30;

const pad = (n: number) => String(n).padStart(2, '0');

/** A local date as `yyyy-mm-dd`. */
export function isoDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The last `days` days, today included. */
export function presetRange(days: Preset, today: Date = new Date()): { from: string; to: string } {
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { from: isoDate(from), to: isoDate(today) };
}

/**
 * A range of `yyyy-mm-dd` dates in the app's language ("November 1 – 7, 2026", "1–7 نوفمبر 2026"):
 * the native date inputs show the browser's own format, whatever the app's language.
 */
export function formatDateRange(range: { from: string; to: string }, language: string): string {
  const format = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
  return format.formatRange(day(range.from), day(range.to));
}

/** The browser's time zone, which decides where days and hours begin. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** True when nothing happened in the range. */
export function isEmpty(totals: ReportNumbers): boolean {
  return totals.conversations_opened + totals.conversations_resolved + totals.messages_in + totals.messages_out === 0;
}

/** uPlot's columns: bucket starts in Unix seconds, then one column per series. */
export function chartColumns(overview: Overview, keys: (keyof ReportNumbers)[]): number[][] {
  const x = overview.buckets.map((bucket) => Date.parse(bucket.start) / 1000);
  return [x, ...keys.map((key) => overview.buckets.map((bucket) => bucket[key] ?? 0))];
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * The x axis's steps between ticks, in seconds: whole buckets only, so that no two ticks fall in
 * one bucket and name it twice ("Nov 23, Nov 23"). uPlot takes the smallest that leaves room.
 */
export function tickSteps(bucket: 'hour' | 'day'): number[] {
  const days = [DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 28 * DAY];
  return bucket === 'hour' ? [HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR, 6 * HOUR, 12 * HOUR, ...days] : days;
}

/** A duration in the largest unit that keeps it readable (`42 sec`, `3.5 min`, `2 hr`). */
export function formatDuration(secs: number | null, language: string): string {
  if (secs === null) return '—';
  const [value, unit] = secs < 60 ? [secs, 'second'] : secs < 3600 ? [secs / 60, 'minute'] : secs < 86400 ? [secs / 3600, 'hour'] : [secs / 86400, 'day'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

export function formatCount(count: number, language: string): string {
  return new Intl.NumberFormat(language).format(count);
}

/** The request for the page's choices. */
export function overviewParams(range: { from: string; to: string }, bucket: OverviewParams['bucket']): OverviewParams {
  return { ...range, bucket, tz: browserTimeZone() };
}
