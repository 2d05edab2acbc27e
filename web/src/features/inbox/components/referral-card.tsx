import { useTranslation } from 'react-i18next';
import type { AdReferral } from '../../../lib/api/types';

/** Only web links are followed; anything else in an ad's URL shows as text. */
function webLink(url: string | undefined): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/** The click-to-WhatsApp ad the customer came from, above the message they wrote. */
export function ReferralCard({ referral }: { referral: AdReferral }) {
  const { t } = useTranslation();
  const image = webLink(referral.thumbnail_url ?? referral.image_url);
  const link = webLink(referral.source_url);
  return (
    <aside className="referral-card" aria-label={t('message.fromAd')}>
      {image && <img src={image} alt="" loading="lazy" referrerPolicy="no-referrer" />}
      <div className="referral-text">
        <span className="muted">{t('message.fromAd')}</span>
        {referral.headline && <strong dir="auto">{referral.headline}</strong>}
        {referral.body && <span dir="auto">{referral.body}</span>}
        {link && (
          <a href={link} target="_blank" rel="noopener noreferrer">
            {t('message.viewAd')}
          </a>
        )}
      </div>
    </aside>
  );
}
