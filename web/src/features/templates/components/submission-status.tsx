import { useTranslation } from 'react-i18next';
import type { Submission } from '../api/templates-api';
import type { ReviewStatus } from '../hooks/use-review-status';

interface Props {
  submitting: boolean;
  outcome: Submission | null;
  review: ReviewStatus | null;
}

/** The status area: submitting, then "Submitted for review" or the error, and the live review. */
export function SubmissionStatus({ submitting, outcome, review }: Props) {
  const { t } = useTranslation();
  if (submitting) {
    return (
      <p className="template-form-status" role="status">
        {t('templateForm.status.submitting')}
      </p>
    );
  }
  if (!outcome) return null;
  if (!outcome.ok) {
    return (
      <p className="template-form-status template-form-status-error" role="alert">
        {t(outcome.key, { detail: outcome.detail ?? t('templateForm.status.unknownError') })}
      </p>
    );
  }
  return (
    <div className="template-form-status template-form-status-success" role="status">
      <p>{t('templateForm.status.success')}</p>
      {review && (
        <p className={`template-form-review template-form-review-${review.status.toLowerCase()}`}>
          {t('templateForm.status.review', { status: t(`templateForm.reviewStatuses.${review.status}`, { defaultValue: review.status }) })}
          {review.reason && ` ${t('templateForm.status.reason', { reason: review.reason })}`}
        </p>
      )}
    </div>
  );
}
