import { useTranslation } from 'react-i18next';
import type { ListRowDraft, ListSectionDraft } from '../api/replies-api';
import { addRow, addSection, MAX_ROWS, MAX_SECTIONS, removeRow, removeSection, type ListDraft } from '../reply-draft';

/** The interactive list: header, body, footer, button label, 1–10 sections of 1–10 rows. */
export function ListEditor({ list, onChange }: { list: ListDraft; onChange: (list: ListDraft) => void }) {
  const { t } = useTranslation();
  const setSection = (index: number, section: ListSectionDraft) => onChange({ ...list, sections: list.sections.map((s, i) => (i === index ? section : s)) });
  const setRow = (section: ListSectionDraft, index: number, change: Partial<ListRowDraft>) => ({
    ...section,
    rows: section.rows.map((row, i) => (i === index ? { ...row, ...change } : row)),
  });
  return (
    <div className="list-editor">
      <label>
        {t('replies.list.header')}
        <input value={list.header} maxLength={60} onChange={(e) => onChange({ ...list, header: e.target.value })} />
      </label>
      <label>
        {t('replies.list.body')}
        <textarea rows={3} value={list.body} maxLength={1024} onChange={(e) => onChange({ ...list, body: e.target.value })} />
      </label>
      <label>
        {t('replies.list.footer')}
        <input value={list.footer} maxLength={60} onChange={(e) => onChange({ ...list, footer: e.target.value })} />
      </label>
      <label>
        {t('replies.list.button')}
        <input value={list.button} maxLength={20} onChange={(e) => onChange({ ...list, button: e.target.value })} />
      </label>
      {list.sections.map((section, s) => (
        <fieldset key={s} className="list-section">
          <legend>{t('replies.list.sectionN', { n: s + 1 })}</legend>
          <label>
            {t('replies.list.sectionTitle')}
            <input value={section.title} maxLength={24} onChange={(e) => setSection(s, { ...section, title: e.target.value })} />
          </label>
          {section.rows.map((row, r) => (
            <fieldset key={r} className="list-row-editor">
              <legend>{t('replies.list.rowN', { n: s + 1, m: r + 1 })}</legend>
              <label>
                {t('replies.list.rowId')}
                <input value={row.id} maxLength={200} onChange={(e) => setSection(s, setRow(section, r, { id: e.target.value }))} />
              </label>
              <label>
                {t('replies.list.rowTitle')}
                <input value={row.title} maxLength={24} onChange={(e) => setSection(s, setRow(section, r, { title: e.target.value }))} />
              </label>
              <label>
                {t('replies.list.rowDescription')}
                <input value={row.description} maxLength={72} onChange={(e) => setSection(s, setRow(section, r, { description: e.target.value }))} />
              </label>
              <button type="button" className="text-button" disabled={section.rows.length <= 1} onClick={() => setSection(s, removeRow(section, r))}>
                {t('replies.list.removeRow', { n: s + 1, m: r + 1 })}
              </button>
            </fieldset>
          ))}
          <div className="row-actions">
            <button type="button" disabled={section.rows.length >= MAX_ROWS} onClick={() => setSection(s, addRow(section))}>
              {t('replies.list.addRow', { n: s + 1 })}
            </button>
            <button type="button" className="text-button" disabled={list.sections.length <= 1} onClick={() => onChange(removeSection(list, s))}>
              {t('replies.list.removeSection', { n: s + 1 })}
            </button>
          </div>
        </fieldset>
      ))}
      <button type="button" disabled={list.sections.length >= MAX_SECTIONS} onClick={() => onChange(addSection(list))}>
        {t('replies.list.addSection')}
      </button>
      <p className="muted">{t('replies.list.limits', { sections: MAX_SECTIONS, rows: MAX_ROWS })}</p>
    </div>
  );
}
