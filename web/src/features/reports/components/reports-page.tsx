import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { detailOf } from '../../../lib/api/client';
import { downloadFile } from '../../../lib/media/download-file';
import { getOverview, getOverviewCsv, type Overview, type OverviewParams } from '../api/reports-api';
import { chartColumns, formatCount, formatDateRange, formatDuration, isEmpty, overviewParams, presetRange, type Preset } from '../report-view';
import { AgentsTable } from './agents-table';
import { ReportChart } from './report-chart';
import '../reports.css';

const PRESETS: Preset[] = [7, 30];
// Mid-tone colours that read on both the dark and the light theme.
const OPENED = '#3b82f6';
const RESOLVED = '#22a06b';
const RECEIVED = '#e8912d';
const SENT = '#a855f7';

/** /reports (owner only): conversations, messages and response times over a range. */
export function ReportsPage() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState(() => presetRange(7));
  const [bucket, setBucket] = useState<OverviewParams['bucket']>('day');
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const params = useMemo(() => overviewParams(range, bucket), [range, bucket]);

  useEffect(() => {
    const abort = new AbortController();
    setError(null);
    getOverview(params, abort.signal)
      .then(setOverview)
      .catch((problem: unknown) => {
        if (abort.signal.aborted) return;
        // The range line already names the refused range: the last one's figures must not stand under it.
        setOverview(null);
        setError(detailOf(problem, t('reports.failed')));
      });
    return () => abort.abort();
  }, [params, t]);

  const conversationSeries = useMemo(
    () => [
      { label: t('reports.opened'), color: OPENED },
      { label: t('reports.resolved'), color: RESOLVED },
    ],
    [t],
  );
  const messageSeries = useMemo(
    () => [
      { label: t('reports.messagesIn'), color: RECEIVED },
      { label: t('reports.messagesOut'), color: SENT },
    ],
    [t],
  );
  const conversationColumns = useMemo(() => overview && chartColumns(overview, ['conversations_opened', 'conversations_resolved']), [overview]);
  const messageColumns = useMemo(() => overview && chartColumns(overview, ['messages_in', 'messages_out']), [overview]);

  async function download() {
    setDownloading(true);
    try {
      const { blob, filename } = await getOverviewCsv(params);
      const url = URL.createObjectURL(blob);
      downloadFile(url, filename);
      window.setTimeout(() => URL.revokeObjectURL(url));
    } catch (problem) {
      setError(detailOf(problem, t('reports.downloadFailed')));
    } finally {
      setDownloading(false);
    }
  }

  const language = i18n.language;
  const totals = overview?.totals;
  return (
    <main className="reports">
      <header className="page-header">
        <Link to="/whatsapp">
          <span className="icon-mirror" aria-hidden="true">←</span> {t('reports.back')}
        </Link>
        <h1>{t('reports.title')}</h1>
        <p className="muted">{t('reports.description', { timeZone: params.tz })}</p>
      </header>

      <form className="panel-card report-controls" onSubmit={(event) => event.preventDefault()}>
        <label>
          {t('reports.from')}
          <input type="date" lang={language} aria-describedby="report-range" value={range.from} max={range.to} required onChange={(e) => e.target.value && setRange({ ...range, from: e.target.value })} />
        </label>
        <label>
          {t('reports.to')}
          <input type="date" lang={language} aria-describedby="report-range" value={range.to} min={range.from} required onChange={(e) => e.target.value && setRange({ ...range, to: e.target.value })} />
        </label>
        <label>
          {t('reports.bucket')}
          <select value={bucket} onChange={(e) => setBucket(e.target.value as OverviewParams['bucket'])}>
            <option value="day">{t('reports.byDay')}</option>
            <option value="hour">{t('reports.byHour')}</option>
          </select>
        </label>
        <div className="report-actions">
          {PRESETS.map((days) => (
            <button key={days} type="button" onClick={() => setRange(presetRange(days))}>
              {t('reports.lastDays', { count: days })}
            </button>
          ))}
          <button type="button" className="primary" onClick={() => void download()} disabled={downloading}>
            {downloading ? t('reports.downloading') : t('reports.downloadCsv')}
          </button>
        </div>
        {/* The native inputs write dates the browser's way; this line writes them the app's. */}
        <p id="report-range" className="report-range muted">
          {t('reports.range', { range: formatDateRange(range, language) })}
        </p>
      </form>

      {error && (
        <p role="alert" className="error-banner">
          {error}
        </p>
      )}
      {!overview && !error && (
        <p role="status" className="muted">
          {t('reports.loading')}
        </p>
      )}
      {overview && totals && isEmpty(totals) && <p className="panel-card report-empty">{t('reports.empty')}</p>}
      {overview && totals && !isEmpty(totals) && (
        <>
          <dl className="report-totals">
            {(
              [
                ['opened', formatCount(totals.conversations_opened, language)],
                ['resolved', formatCount(totals.conversations_resolved, language)],
                ['firstResponseMedian', formatDuration(totals.first_response_median_secs, language)],
                ['firstResponseP90', formatDuration(totals.first_response_p90_secs, language)],
                ['resolutionMedian', formatDuration(totals.resolution_median_secs, language)],
                ['messagesIn', formatCount(totals.messages_in, language)],
                ['messagesOut', formatCount(totals.messages_out, language)],
              ] as const
            ).map(([key, value]) => (
              <div key={key} className="panel-card">
                <dt>{t(`reports.${key}`)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {conversationColumns && (
            <ReportChart title={t('reports.conversationsChart')} series={conversationSeries} columns={conversationColumns} timeZone={overview.tz} bucket={overview.bucket} />
          )}
          {messageColumns && <ReportChart title={t('reports.messagesChart')} series={messageSeries} columns={messageColumns} timeZone={overview.tz} bucket={overview.bucket} />}
          <AgentsTable agents={overview.agents} />
        </>
      )}
    </main>
  );
}
