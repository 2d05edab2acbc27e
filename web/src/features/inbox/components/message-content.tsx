import { useTranslation } from 'react-i18next';
import type { CallPermissionReply, FlowReply, InteractiveList as List, Message, MessageContent as Content } from '../../../lib/api/types';
import { CallPermissionCard } from './call-permission-card';
import { DocumentCard } from './document-card';
import { FlowReplyCard } from './flow-reply-card';
import { InteractiveList } from './interactive-list';
import { LocationCard } from './location-card';
import { MediaMessage } from './media-message';
import { MessageErrorLine } from './message-error-line';
import { OrderCard } from './order-card';
import { ReferralCard } from './referral-card';
import { SharedContacts } from './shared-contacts';
import { TemplateCard } from './template-card';
import { TextWithLinks } from './text-with-links';

type Interactive = Content['interactive'];

function isList(interactive: Interactive): interactive is List {
  return interactive?.type === 'list' && 'action' in interactive;
}

function isFlowReply(interactive: Interactive): interactive is FlowReply {
  return interactive?.type === 'nfm_reply';
}

function isCallPermission(interactive: Interactive): interactive is CallPermissionReply {
  return interactive?.type === 'call_permission_reply';
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

/** A message of a kind this app cannot show (or an empty one): a neutral line, never a blank bubble. */
function Unsupported() {
  const { t } = useTranslation();
  return <p className="message-text muted">{t('message.unsupported')}</p>;
}

interface Props {
  message: Message;
  onReply: (text: string) => void;
}

/** A message's content: the ad it came from, its body by kind, and any error WhatsApp attached. */
export function MessageContent({ message, onReply }: Props) {
  const { referral } = message.content;
  return (
    <>
      {referral && <ReferralCard referral={referral} />}
      <MessageBody message={message} onReply={onReply} />
      <MessageErrorLine message={message} />
    </>
  );
}

/** Renders a message body by its kind. */
function MessageBody({ message, onReply }: Props) {
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
        <TemplateCard template={content.template_structure} components={content.components} />
      ) : (
        <TextWithLinks text={content.text ?? ''} />
      );
    case 'interactive': {
      const interactive = content.interactive;
      if (isList(interactive)) return <InteractiveList list={interactive} onChoose={onReply} />;
      if (isFlowReply(interactive)) return <FlowReplyCard reply={interactive} />;
      if (isCallPermission(interactive)) return <CallPermissionCard reply={interactive} />;
      const text = content.text ?? interactive?.title;
      const media = content.document ?? content.image ?? content.video;
      if (!text && !media && !content.buttons?.length) return <Unsupported />;
      return (
        <div className="interactive-reply">
          <ButtonsHeader content={content} />
          <TextWithLinks text={text ?? ''} />
          {interactive && 'description' in interactive && interactive.description && <small>{interactive.description}</small>}
          <QuickReplies content={content} />
        </div>
      );
    }
    case 'reaction':
      return <p className="reaction">{t('message.reacted', { emoji: content.reaction?.emoji ?? '' })}</p>;
    case 'contacts':
      return content.contacts?.length ? <SharedContacts contacts={content.contacts} /> : <Unsupported />;
    case 'system':
      if (content.system?.type === 'request_welcome') return <p className="muted">{t('message.openedChat')}</p>;
      return content.text ? <p className="muted">{content.text}</p> : <Unsupported />;
    case 'text':
    case 'button': {
      const text = content.text ?? content.full_text ?? content.body;
      if (!text && !content.buttons?.length) return <Unsupported />;
      return (
        <>
          <TextWithLinks text={text ?? ''} />
          <QuickReplies content={content} />
        </>
      );
    }
    default:
      // `unsupported`, and any kind newer than this app.
      return <Unsupported />;
  }
}
