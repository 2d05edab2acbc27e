import { useTranslation } from 'react-i18next';
import type { Teammate } from '../hooks/use-presence';

/** "{name} is typing…" / "{name} is viewing" for the teammates in the conversation. */
export function PresenceLine({ teammates }: { teammates: Teammate[] }) {
  const { t } = useTranslation();
  if (teammates.length === 0) return null;
  return (
    <p className="presence-line" role="status" aria-label={t('team.presence')}>
      {teammates.map((teammate) => (
        <span key={teammate.user_id} className={`presence-${teammate.state}`}>
          {t(teammate.state === 'typing' ? 'team.typing' : 'team.viewing', { name: teammate.name })}
        </span>
      ))}
    </p>
  );
}
