import { Icon } from '../../../components/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const EMOJIS = ['😀', '😂', '😊', '😍', '🙏', '👍', '👋', '🎉', '❤️', '🔥', '✅', '❌', '🤔', '😢', '😎', '📦', '🚚', '💳', '📞', '⏰'];

/** A small emoji palette (web only, spec section 6). */
export function EmojiPicker({ disabled, onPick }: { disabled: boolean; onPick: (emoji: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className="menu">
      <button
        type="button"
        className="icon-button"
        aria-label={t('chat.emoji')}
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((value) => !value)}
      >
        <Icon name="smile" />
      </button>
      {open && (
        <div className="emoji-grid menu-items up" role="listbox" aria-label={t('chat.emoji')}>
          {EMOJIS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              role="option"
              aria-selected="false"
              onClick={() => {
                onPick(emoji);
                setOpen(false);
              }}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
