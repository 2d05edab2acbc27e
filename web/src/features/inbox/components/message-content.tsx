import { useTranslation } from 'react-i18next';
import type { InteractiveList as List, InteractiveReply, Message, MessageContent as Content } from '../../../lib/api/types';
import { DocumentCard } from './document-card';
import { InteractiveList } from './interactive-list';
import { LocationCard } from './location-card';
import { MediaMessage } from './media-message';
import { OrderCard } from './order-card';
import { TemplateCard } from './template-card';
import { TextWithLinks } from './text-with-links';

function isList(interactive: List | InteractiveReply | undefined): interactive is List {
  return interactive?.type === 'list' && 'action' in interactive;
}

function Caption({ text }: { text: string | undefined }) {
  return text ? <TextWithLinks text={text} /> : null;
}

/** The quick-reply buttons a message offers (a customer taps one to answer with its title). */
function QuickReplies({ content }: { content: Content }) {
  if (!content.buttons?.length) return null;
  return (
    <div className="message-buttons">
      {content.buttons.map((button) => (
        <span key={button.id} className="chip">
          {button.title}
        </span>
      ))}
    </div>
  );
}

/** The media header of a button message (an automated reply may carry an image, video or document). */
function ButtonsHeader({ content }: { content: Content }) {
  if (content.document) return <DocumentCard media={content.document} />;
  if (content.image) return <MediaMessage kind="image" media={content.image} />;
  if (content.video) return <MediaMessage kind="video" media={content.video} />;
  return null;
}

/** Renders a message body by its kind. */
export function MessageContent({ message, onReply }: { message: Message; onReply: (text: string) => void }) {
  const { t } = useTranslation();
  const content = message.content;
  switch (message.type) {
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker': {
      const media = content[message.type];
      const sending = message.status === 'sending' || message.status === 'pending';
      if (message.type === 'audio' && message.direction === 'outgoing' && sending) {
        return <p className="media-placeholder">{t('sendingAudio')}</p>;
      }
      return (
        <>
          {media ? <MediaMessage kind={message.type} media={media} /> : <p>{t('failedToFetchMedia')}</p>}
          <Caption text={content.caption} />
        </>
      );
    }
    case 'document':
      return (
        <>
          {content.document && <DocumentCard media={content.document} />}
          <Caption text={content.caption} />
        </>
      );
    case 'location':
      return content.location ? <LocationCard location={content.location} /> : <p>{t('locationNotAvailable')}</p>;
    case 'order':
      return <OrderCard items={content.order?.product_items ?? []} text={content.text ?? content.order?.text} />;
    case 'template':
      return content.template_structure ? (
        <TemplateCard template={content.template_structure} />
      ) : (
        <TextWithLinks text={content.text ?? ''} />
      );
    case 'interactive': {
      const interactive = content.interactive;
      if (isList(interactive)) return <InteractiveList list={interactive} onChoose={onReply} />;
      return (
        <div className="interactive-reply">
          <ButtonsHeader content={content} />
          <TextWithLinks text={content.text ?? interactive?.title ?? ''} />
          {interactive && 'description' in interactive && interactive.description && <small>{interactive.description}</small>}
          <QuickReplies content={content} />
        </div>
      );
    }
    case 'reaction':
      return <p className="reaction">{t('message.reacted', { emoji: content.reaction?.emoji ?? '' })}</p>;
    case 'unsupported':
      return <p className="muted">{t('message.unsupported')}</p>;
    case 'text':
    case 'button':
      return (
        <>
          <TextWithLinks text={content.text ?? content.full_text ?? content.body ?? ''} />
          <QuickReplies content={content} />
        </>
      );
  }
}
