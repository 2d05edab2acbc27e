import { useTranslation } from 'react-i18next';
import type { SkippedRows } from '../api/sender-api';

interface Props {
  skipped: SkippedRows;
  fileName: string;
}

/** Rows listed on the screen; the download holds them all. */
const SHOWN_ROWS = 5;

/** How many rows of a recipient file were skipped and why, the first of them, and all of them to download. */
export function SkippedSummary({ skipped, fileName }: Props) {
  const { t } = useTranslation();
  if (skipped.count === 0) return null;
  const href = `data:text/csv;charset=utf-8,${encodeURIComponent(skipped.csv)}`;
  const base = fileName.replace(/\.[^.]+$/, '');
  const rows = (skipped.rows ?? []).slice(0, SHOWN_ROWS);
  const more = skipped.count - rows.length;
  return (
    <div className="sender-skipped" role="status">
      <p className="note">
        {t('sender.skippedSummary', {
          count: skipped.count,
          invalid: skipped.invalid_number,
          duplicate: skipped.duplicate,
          missing: skipped.missing_variable,
        })}{' '}
        <a href={href} download={`${base}-skipped.csv`}>
          {t('sender.downloadSkipped')}
        </a>
      </p>
      {rows.length > 0 && (
        <ul className="note sender-skipped-rows">
          {rows.map((row) => (
            <li key={row.row}>
              {t('sender.skippedRow', {
                row: row.row,
                value: row.value,
                reason: t(`sender.skipReasons.${row.reason}`, { variable: row.variable ?? '' }),
              })}
            </li>
          ))}
          {more > 0 && <li>{t('sender.skippedMore', { count: more })}</li>}
        </ul>
      )}
    </div>
  );
}
