import type { Overview } from './api/reports-api';
import { chartColumns, formatDateRange, formatDuration, isEmpty, presetRange } from './report-view';

const ZERO = {
  conversations_opened: 0,
  conversations_resolved: 0,
  messages_in: 0,
  messages_out: 0,
  first_response_median_secs: null,
  first_response_p90_secs: null,
  resolution_median_secs: null,
  resolution_p90_secs: null,
};

describe('report view', () => {
  it('presets end today and include it', () => {
    expect(presetRange(7, new Date(2026, 2, 3))).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(presetRange(30, new Date(2026, 0, 30))).toEqual({ from: '2026-01-01', to: '2026-01-30' });
  });

  it('writes a range of dates in the app language, whatever the browser writes in its date inputs', () => {
    // Intl puts thin spaces around the dash.
    expect(formatDateRange({ from: '2026-11-01', to: '2026-11-07' }, 'en')).toMatch(/^November 1\s–\s7, 2026$/);
    expect(formatDateRange({ from: '2025-12-25', to: '2026-01-07' }, 'en')).toMatch(/^December 25, 2025\s–\sJanuary 7, 2026$/);
    expect(formatDateRange({ from: '2026-11-07', to: '2026-11-07' }, 'en')).toBe('November 7, 2026');
    const arabic = formatDateRange({ from: '2026-11-01', to: '2026-11-07' }, 'ar');
    expect(arabic).toContain('نوفمبر');
    expect(arabic).not.toMatch(/\d\d\/\d\d\/\d{4}/);
  });

  it('formats durations in a readable unit for the language', () => {
    expect(formatDuration(null, 'en')).toBe('—');
    expect(formatDuration(42, 'en')).toBe('42 sec');
    expect(formatDuration(210, 'en')).toBe('3.5 min');
    expect(formatDuration(7200, 'en')).toBe('2 hr');
    expect(formatDuration(42, 'ar')).not.toBe('42 sec');
  });

  it('turns buckets into chart columns and knows an empty range', () => {
    const overview: Overview = {
      from: '2026-03-01T00:00:00+03:00',
      to: '2026-03-03T00:00:00+03:00',
      bucket: 'day',
      tz: 'Asia/Riyadh',
      buckets: [
        { ...ZERO, start: '2026-03-01T00:00:00+03:00', conversations_opened: 2 },
        { ...ZERO, start: '2026-03-02T00:00:00+03:00', conversations_resolved: 1 },
      ],
      agents: [],
      totals: { ...ZERO, conversations_opened: 2, conversations_resolved: 1 },
    };
    expect(chartColumns(overview, ['conversations_opened', 'conversations_resolved'])).toEqual([
      [Date.UTC(2026, 1, 28, 21) / 1000, Date.UTC(2026, 2, 1, 21) / 1000],
      [2, 0],
      [0, 1],
    ]);
    expect(isEmpty(overview.totals)).toBe(false);
    expect(isEmpty(ZERO)).toBe(true);
  });
});
