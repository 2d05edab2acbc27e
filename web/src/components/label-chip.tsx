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

/** A conversation's labels as a row of chips (nothing when it has none). */
export function LabelChips({ labels, name }: { labels: Label[] | undefined; name: string }) {
  if (!labels?.length) return null;
  return (
    <span className="label-chips" role="list" aria-label={name}>
      {labels.map((label) => (
        <span role="listitem" key={label.id}>
          <LabelChip label={label} />
        </span>
      ))}
    </span>
  );
}
