import { useTranslation } from 'react-i18next';
import type { CannedReply } from '../../../lib/api/canned-replies';
import '../canned-menu.css';

interface Props {
  id: string;
  replies: CannedReply[];
  active: number;
  onPoint: (index: number) => void;
  onChoose: (reply: CannedReply) => void;
}

/** The id of one option of the list, for the textbox's `aria-activedescendant`. */
export function cannedOptionId(listId: string, index: number): string {
  return `${listId}-${index}`;
}

/** The canned replies a `/query` finds, above the composer; the textbox keeps the focus. */
export function CannedMenu({ id, replies, active, onPoint, onChoose }: Props) {
  const { t } = useTranslation();
  return (
    <div id={id} className="canned-menu" role="listbox" aria-label={t('canned.menuLabel')}>
      {replies.map((reply, index) => (
        <button
          key={reply.id}
          type="button"
          // The textbox keeps the focus and names the active option; the arrows move it.
          tabIndex={-1}
          id={cannedOptionId(id, index)}
          role="option"
          aria-selected={index === active}
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => onPoint(index)}
          onClick={() => onChoose(reply)}
        >
          <span className="canned-shortcut" dir="ltr">
            /{reply.shortcut}
          </span>
          <span className="canned-preview" dir="auto">
            {reply.text}
          </span>
        </button>
      ))}
    </div>
  );
}
