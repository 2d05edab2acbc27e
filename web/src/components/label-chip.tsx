import { useTranslation } from 'react-i18next';
import type { Label } from '../lib/api/types';
import { textColorOn } from '../lib/labels/label-color';
import './label-chip.css';

/** One label, filled with its colour. */
export function LabelChip({ label }: { label: Label }) {
  return (
    <span className="label-chip" dir="auto" title={label.name} style={{ background: label.color, color: textColorOn(label.color) }}>
      {label.name}
    </span>
  );
}

/**
 * A conversation's labels as a row of chips (nothing when it has none). With `limit`, the first
 * ones and a "+N" chip that names the others (where space is short, as in a list row).
 */
export function LabelChips({ labels, name, limit }: { labels: Label[] | undefined; name: string; limit?: number }) {
  const { t } = useTranslation();
  if (!labels?.length) return null;
  const shown = limit === undefined ? labels : labels.slice(0, limit);
  const others = labels.slice(shown.length);
  return (
    <span className="label-chips" role="list" aria-label={name}>
      {shown.map((label) => (
        <span role="listitem" key={label.id}>
          <LabelChip label={label} />
        </span>
      ))}
      {others.length > 0 && (
        <span role="listitem" className="label-more" title={others.map((label) => label.name).join(', ')} aria-label={t('labels.more', { count: others.length })}>
          +{others.length}
        </span>
      )}
    </span>
  );
}
