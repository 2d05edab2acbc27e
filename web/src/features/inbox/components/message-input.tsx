import { Icon } from '../../../components/icon';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cannedMediaFile, type CannedMedia, type CannedReply } from '../../../lib/api/canned-replies';
import type { Message } from '../../../lib/api/types';
import { fillCanned, matchCanned, slashQueryAt, type CannedValues } from '../canned';
import type { Draft } from '../hooks/use-messages';
import { useQueryMenu, type QueryMenu } from '../hooks/use-query-menu';
import { useTeamMembers } from '../hooks/use-team-members';
import { matchMembers, mentionOf, mentionQueryAt } from '../mentions';
import { replaceQuery } from '../typed-query';
import { currentUserId } from '../../../lib/api/token-claims';
import { SuggestionMenu, suggestionOptionId } from './suggestion-menu';
import { textDirection } from '../text-direction';
import { contextOf } from '../reply-context';
import { EmojiPicker } from './emoji-picker';
import { ReplyingTo } from './quoted-message';
import { VoiceRecorder } from './voice-recorder';
import { pickPhotos } from '../../../lib/native/gallery';
import { isNative } from '../../../lib/native/platform';
import { useToastsAbove } from '../../../lib/toast/use-toasts-above';

const MAX_HEIGHT_PX = 200;
const ACCEPT =
  'image/*,audio/*,video/*,.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

interface Props {
  /** The reply window is closed; notes stay possible. */
  disabled: boolean;
  onSend: (draft: Draft) => void;
  /** A note for the team, never sent to the customer; a rejection gives the text back to the box. */
  onNote: (text: string) => Promise<unknown> | void;
  /** Called on every keystroke (presence throttles it). */
  onTyping: () => void;
  /** Templates stay possible when the reply window is closed. */
  onTemplate: () => void;
  /** Offered by typing `/`; choosing one puts its filled text in the box and its file among the
   * attachments (first, so the text is its caption), never sends it. */
  canned: CannedReply[];
  cannedValues: CannedValues;
  /** The message being answered (a quoted reply), until it is sent or cancelled. */
  replyTo?: Message | null;
  onCancelReply?: () => void;
}

type Mode = 'reply' | 'note';

export function MessageInput({ disabled: windowClosed, onSend, onNote, onTyping, onTemplate, canned, cannedValues, replyTo, onCancelReply }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('reply');
  const noting = mode === 'note';
  const disabled = windowClosed && !noting;
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  /** A canned reply's file is being fetched: Send waits for it. */
  const [attaching, setAttaching] = useState(false);
  const [attachFailed, setAttachFailed] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const filePicker = useRef<HTMLInputElement>(null);
  const composer = useRef<HTMLFormElement>(null);
  /** Where the caret goes once the text a suggestion wrote shows. */
  const placeCaret = useRef<number | null>(null);
  useToastsAbove(composer);
  const slashMenu = useQueryMenu(slashQueryAt, (query) => matchCanned(canned, query));
  // Teammates to mention, offered in notes only: a reply goes to the customer, who sees no mention.
  const members = useTeamMembers(noting);
  const mentionMenu = useQueryMenu(mentionQueryAt, (query) => (noting ? matchMembers(members, query, currentUserId()) : []));
  const menuId = useId();
  const mentioning = mentionMenu.open;
  const menu: QueryMenu<unknown> = mentioning ? mentionMenu : slashMenu;
  const listOpen = menu.open && !disabled;

  // Choosing "Reply" on a message puts the cursor in the box.
  useEffect(() => {
    if (replyTo) textarea.current?.focus();
  }, [replyTo]);

  const resize = () => {
    const element = textarea.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (noting) {
      if (!text.trim()) return;
      const written = text;
      // A note that was not saved (offline, say) is not lost: it comes back unless something new was typed.
      void Promise.resolve(onNote(text.trim())).catch(() => setText((current) => (current === '' ? written : current)));
    } else {
      if (disabled || attaching || (!text.trim() && files.length === 0)) return;
      onSend({ text, files, replyTo: replyTo ?? undefined });
    }
    setText('');
    setFiles([]);
    requestAnimationFrame(resize);
  };

  /** Writes `inserted` in place of the typed `/word` or `@word`, the caret after it. */
  const fill = (inserted: string) => {
    if (!menu.typed) return;
    const next = replaceQuery(text, menu.typed, inserted);
    setText(next.text);
    menu.close();
    placeCaret.current = next.caret;
  };

  // The caret goes after what a pick wrote as soon as the box shows it, before the next key.
  useLayoutEffect(() => {
    const caret = placeCaret.current;
    const element = textarea.current;
    if (caret === null || !element) return;
    placeCaret.current = null;
    element.focus();
    element.setSelectionRange(caret, caret);
    resize();
  }, [text]);

  const choose = (reply: CannedReply) => {
    fill(fillCanned(reply.text, cannedValues));
    if (reply.media) attach(reply.media);
  };

  const attach = (media: CannedMedia) => {
    setAttaching(true);
    setAttachFailed(false);
    cannedMediaFile(media)
      .then((file) => setFiles((current) => [file, ...current]))
      .catch(() => setAttachFailed(true))
      .finally(() => setAttaching(false));
  };

  const pickActive = () => {
    if (mentioning) {
      const member = mentionMenu.matches[mentionMenu.active];
      if (member) fill(mentionOf(member));
    } else {
      const reply = slashMenu.matches[slashMenu.active];
      if (reply) choose(reply);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') menu.move(event.key === 'ArrowDown' ? 1 : -1);
    else if (event.key === 'Escape') menu.close();
    else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && !event.nativeEvent.isComposing) pickActive();
    else return false;
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (listOpen && onMenuKey(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const insert = (emoji: string) => {
    const element = textarea.current;
    const at = element?.selectionStart ?? text.length;
    setText(text.slice(0, at) + emoji + text.slice(element?.selectionEnd ?? at));
  };

  return (
    <form ref={composer} className={noting ? 'composer noting' : 'composer'} onSubmit={submit}>
      <div className="compose-mode" role="radiogroup" aria-label={t('team.composeMode')}>
        {(['reply', 'note'] as const).map((option) => (
          <button key={option} type="button" role="radio" aria-checked={mode === option} onClick={() => setMode(option)}>
            {t(`team.${option}`)}
          </button>
        ))}
      </div>
      {disabled && (
        <p className="window-banner" role="status">
          {t('chat.windowExpiredBanner')}{' '}
          <button type="button" className="link-button" onClick={onTemplate}>
            {t('template.open')}
          </button>
        </p>
      )}
      {!noting && replyTo && onCancelReply && <ReplyingTo context={contextOf(replyTo)} onCancel={onCancelReply} />}
      {!noting && files.length > 0 && (
        <ul className="chosen-files" aria-label={t('chat.attachments')}>
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              <span>{file.name}</span>
              <button
                type="button"
                className="link-button"
                aria-label={t('chat.removeFile', { name: file.name })}
                onClick={() => setFiles(files.filter((_, other) => other !== index))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {!noting && attaching && <p role="status">{t('chat.attachingCanned')}</p>}
      {!noting && attachFailed && (
        <p role="alert" className="form-error">
          {t('chat.cannedMediaFailed')}
        </p>
      )}
      {listOpen && mentioning && (
        <SuggestionMenu
          id={menuId}
          label={t('team.mentionMenuLabel')}
          items={mentionMenu.matches}
          keyOf={(member) => member.id}
          active={mentionMenu.active}
          onPoint={mentionMenu.point}
          onChoose={(member) => fill(mentionOf(member))}
        >
          {(member) => (
            <>
              <span className="suggestion-title" dir="auto">
                {member.name || member.username}
              </span>
              <bdi className="suggestion-detail" dir="ltr">
                @{member.username}
              </bdi>
            </>
          )}
        </SuggestionMenu>
      )}
      {listOpen && !mentioning && (
        <SuggestionMenu
          id={menuId}
          label={t('canned.menuLabel')}
          items={slashMenu.matches}
          keyOf={(reply) => reply.id}
          active={slashMenu.active}
          onPoint={slashMenu.point}
          onChoose={choose}
        >
          {(reply) => (
            <>
              <span className="suggestion-title" dir="ltr">
                /{reply.shortcut}
              </span>
              <span className="suggestion-detail" dir="auto">
                {reply.text}
              </span>
            </>
          )}
        </SuggestionMenu>
      )}
      <div className="composer-row">
        <EmojiPicker disabled={disabled} onPick={insert} />
        {!noting && (
          <>
            <button type="button" className="icon-button" aria-label={t('template.open')} title={t('template.open')} onClick={onTemplate}>
              <Icon name="template" />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={t('chat.attach')}
              disabled={disabled}
              onClick={() => filePicker.current?.click()}
            >
              <Icon name="clip" />
            </button>
            {isNative() && (
              <button
                type="button"
                className="icon-button"
                aria-label={t('native.pickFromGallery')}
                title={t('native.pickFromGallery')}
                disabled={disabled}
                onClick={() =>
                  void pickPhotos().then(
                    (photos) => setFiles((current) => [...current, ...photos]),
                    (error: unknown) => console.warn('gallery pick failed', error),
                  )
                }
              >
                🖼
              </button>
            )}
          </>
        )}
        <input
          ref={filePicker}
          type="file"
          hidden
          multiple
          accept={ACCEPT}
          aria-label={t('chat.attach')}
          onChange={(event) => {
            setFiles([...files, ...Array.from(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        <textarea
          ref={textarea}
          rows={1}
          value={text}
          dir={textDirection(text)}
          disabled={disabled}
          aria-label={t(noting ? 'team.notePlaceholder' : 'chat.typeMessage')}
          placeholder={t(noting ? 'team.notePlaceholder' : 'chat.typeMessage')}
          aria-autocomplete="list"
          // The box stays a textbox (its name is how people and tests find it) that opens a list.
          // oxlint-disable-next-line jsx-a11y/role-supports-aria-props
          aria-expanded={listOpen}
          aria-controls={listOpen ? menuId : undefined}
          aria-activedescendant={listOpen ? suggestionOptionId(menuId, menu.active) : undefined}
          onChange={(event) => {
            setText(event.target.value);
            slashMenu.update(event.target.value, event.target.selectionStart);
            mentionMenu.update(event.target.value, event.target.selectionStart);
            resize();
            onTyping();
          }}
          onKeyDown={onKeyDown}
        />
        {!noting && <VoiceRecorder disabled={disabled} onSend={(file) => onSend({ text: '', files: [file] })} />}
        <button type="submit" className="primary" disabled={disabled || (!noting && attaching) || (!text.trim() && (noting || files.length === 0))}>
          {t(noting ? 'team.addNote' : 'chat.send')}
        </button>
      </div>
    </form>
  );
}
