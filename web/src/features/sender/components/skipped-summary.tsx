import { useTranslation } from 'react-i18next';
import type { SkippedRows } from '../api/sender-api';

interface Props {
  skipped: SkippedRows;
  fileName: string;
}

/** How many rows of a recipient file were skipped and why, with those rows to download. */
export function SkippedSummary({ skipped, fileName }: Props) {
  const { t } = useTranslation();
  if (skipped.count === 0) return null;
  const href = `data:text/csv;charset=utf-8,${encodeURIComponent(skipped.csv)}`;
  const base = fileName.replace(/\.[^.]+$/, '');
  return (
    <p className="note sender-skipped" role="status">
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
  );
}
