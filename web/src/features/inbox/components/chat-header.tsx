import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar';
import { DropdownMenu } from '../../../components/dropdown-menu';
import { Icon } from '../../../components/icon';
import { LabelChips } from '../../../components/label-chip';
import type { Conversation } from '../../../lib/api/types';
import { customerKey } from '../../../lib/customer/customer-key';
import { formatDateTime } from '../../../lib/format/dates';
import { handleOf, titleOf } from '../customer-labels';
import type { ReplyWindow } from '../reply-window';
import { ContactModal } from './contact-modal';
import { ConversationActions } from './conversation-actions';
import { DeleteContactModal } from './delete-contact-modal';
import { LabelPicker } from './label-picker';
import { ReplyWindowTimer } from './reply-window-timer';

interface Props {
  conversation: Conversation;
  /** Null while it is not known yet. */
  replyWindow: ReplyWindow | null;
  showBack: boolean;
  onBack: () => void;
  onContactSaved: (key: string, name: string) => void;
  onContactDeleted: () => void;
  onTeamChange: (row: Conversation) => void;
}

export function ChatHeader({ conversation, replyWindow, showBack, onBack, onContactSaved, onContactDeleted, onTeamChange }: Props) {
  const { t } = useTranslation();
  const [modal, setModal] = useState<'edit' | 'delete' | null>(null);
  const name = titleOf(conversation) || t('inbox.unknown');
  const key = customerKey(conversation);
  const handle = handleOf(conversation);
  // On a small screen the pane replaces the list, and the row that had the focus with it: the
  // focus goes to Back, the pane's first control, instead of the page.
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (showBack && document.activeElement === document.body) back.current?.focus();
  }, [showBack]);
  return (
    <header className="chat-header">
      {showBack && (
        <button ref={back} type="button" className="icon-button" aria-label={t('chat.back')} onClick={onBack}>
          <Icon name="back" mirrored />
        </button>
      )}
      <Avatar name={name} />
      <div className="chat-title">
        {/* The name takes its own direction (its start shows, its end is cut); the heading is only as
            wide as the name, so it sits by the avatar in either page direction. */}
        <h2 dir="auto">{name}</h2>
        {handle !== name && (
          <bdi dir="ltr" className="row-phone">
            {handle}
          </bdi>
        )}
        {conversation.status === 'snoozed' && conversation.snoozed_until && (
          <span className="snoozed-until">{t('team.snoozedUntil', { time: formatDateTime(conversation.snoozed_until) })}</span>
        )}
        <LabelChips labels={conversation.labels} name={t('labels.ofConversation')} />
      </div>
      {replyWindow && <ReplyWindowTimer state={replyWindow} />}
      <DropdownMenu
        label={t('chat.contactMenu')}
        icon="⋮"
        align="end"
        items={[
          { label: t('contact.editTitle'), onSelect: () => setModal('edit') },
          { label: t('contact.deleteTitle'), onSelect: () => setModal('delete') },
        ]}
      />
      <ConversationActions conversation={conversation} onChanged={onTeamChange} />
      <LabelPicker conversation={conversation} onChanged={onTeamChange} />
      {modal === 'edit' && (
        <ContactModal
          contact={{ name: conversation.name ?? '', key, phone: conversation.phone_number, handle }}
          onClose={() => setModal(null)}
          onSaved={(phone, newName) => {
            setModal(null);
            onContactSaved(phone, newName);
          }}
        />
      )}
      {modal === 'delete' && (
        <DeleteContactModal
          name={name}
          customerKey={key}
          onClose={() => setModal(null)}
          onDeleted={() => {
            setModal(null);
            onContactDeleted();
          }}
        />
      )}
    </header>
  );
}
