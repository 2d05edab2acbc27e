import { useTranslation } from 'react-i18next';
import type { FlowReply } from '../../../lib/api/types';
import { flowAnswers } from '../flow-answers';

/** A WhatsApp Flow the customer completed: the flow's name and body, then their answers. */
export function FlowReplyCard({ reply }: { reply: FlowReply }) {
  const { t } = useTranslation();
  const answers = flowAnswers(reply.response);
  return (
    <div className="message-card" role="group" aria-label={t('message.flowReply')}>
      <strong className="card-title">{reply.name || t('message.flowReply')}</strong>
      {reply.body && <p className="message-text" dir="auto">{reply.body}</p>}
      {answers.length > 0 && (
        <dl className="card-fields">
          {answers.map((answer, index) => (
            <div key={`${answer.label}-${index}`}>
              {answer.label && <dt dir="auto">{answer.label}</dt>}
              <dd dir="auto">{answer.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
