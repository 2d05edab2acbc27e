import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import type { InteractiveList as List } from '../../../lib/api/types';
import { partText } from './template-card';
import { TextWithLinks } from './text-with-links';

/** A list message: header, body, footer and a button that opens its sections; a row sends its title. */
export function InteractiveList({ list, onChoose }: { list: List; onChoose: (title: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const header = partText(list.header);
  const footer = partText(list.footer);
  return (
    <div className="interactive-list">
      {header && <strong>{header}</strong>}
      <TextWithLinks text={partText(list.body)} />
      {footer && <small>{footer}</small>}
      <button type="button" className="list-button" onClick={() => setOpen(true)}>
        {list.action.button}
      </button>
      {open && (
        <Modal title={list.action.button} onClose={() => setOpen(false)}>
          {list.action.sections.map((section, index) => (
            <section key={section.title ?? index} className="list-section">
              {section.title && <h3>{section.title}</h3>}
              {section.rows.map((row) => (
                <button
                  key={row.id}
                  type="button"
                  className="list-row"
                  onClick={() => {
                    setOpen(false);
                    onChoose(row.title);
                  }}
                >
                  <span>{row.title}</span>
                  {row.description && <small>{row.description}</small>}
                </button>
              ))}
            </section>
          ))}
          <div className="modal-actions">
            <button type="button" onClick={() => setOpen(false)}>
              {t('close')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
