import { apiRequest, apiResponse } from '../../../lib/api/client';

/** The numbers of one bucket, or of the whole range (docs/API.md, "Reports"). */
export interface ReportNumbers {
  conversations_opened: number;
  conversations_resolved: number;
  messages_in: number;
  messages_out: number;
  first_response_median_secs: number | null;
  first_response_p90_secs: number | null;
  resolution_median_secs: number | null;
  resolution_p90_secs: number | null;
}

export interface ReportBucket extends ReportNumbers {
  /** RFC 3339 in the report's time zone. */
  start: string;
}

export interface ReportAgent {
  user_id: string;
  name: string;
  conversations_handled: number;
  first_response_median_secs: number | null;
}

export interface Overview {
  from: string;
  to: string;
  bucket: 'hour' | 'day';
  tz: string;
  buckets: ReportBucket[];
  agents: ReportAgent[];
  totals: ReportNumbers;
}

export interface OverviewParams {
  /** Local dates, `yyyy-mm-dd`, both included. */
  from: string;
  to: string;
  bucket: 'hour' | 'day';
  /** An IANA zone name. */
  tz: string;
}

function query(params: OverviewParams, format?: 'csv'): string {
  const search = new URLSearchParams({ from: params.from, to: params.to, bucket: params.bucket, tz: params.tz });
  if (format) search.set('format', format);
  return `/api/reports/overview?${search.toString()}`;
}

/** GET /api/reports/overview (owner only). */
export function getOverview(params: OverviewParams, signal?: AbortSignal): Promise<Overview> {
  return apiRequest(query(params), { signal });
}

/** GET /api/reports/overview?format=csv: the file and the name the server gives it. */
export async function getOverviewCsv(params: OverviewParams): Promise<{ blob: Blob; filename: string }> {
  const response = await apiResponse(query(params, 'csv'));
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'parley-report.csv';
  return { blob: await response.blob(), filename };
}
