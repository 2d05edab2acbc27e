// The provider's review of a submitted template: the create answer says PENDING, and the decision
// arrives later as a live `template_status` event (possibly before the answer, so every event of
// the business is kept by template id). After a `reset` the list is read again.
import { useState } from 'react';
import { useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { getTemplates } from '../api/templates-api';

export interface ReviewStatus {
  status: string;
  reason?: string;
}

/** The latest review status of the template with this id, starting from the create answer's. */
export function useReviewStatus(submitted: { id: string; status: string } | null): ReviewStatus | null {
  const [decided, setDecided] = useState<Record<string, ReviewStatus>>({});

  useRealtimeEvents((event) => {
    if (event.event === 'template_status') {
      const { id, status, reason } = event.data;
      if (id === undefined || typeof status !== 'string') return;
      const update: ReviewStatus = typeof reason === 'string' && reason !== 'NONE' ? { status, reason } : { status };
      setDecided((known) => ({ ...known, [String(id)]: update }));
    } else if (event.event === 'reset' && submitted) {
      getTemplates()
        .then((templates) => {
          const found = templates.find((template) => String(template.id) === submitted.id);
          if (found) setDecided((known) => ({ ...known, [submitted.id]: { status: found.status } }));
        })
        .catch(() => undefined);
    }
  });

  if (!submitted) return null;
  return decided[submitted.id] ?? { status: submitted.status };
}
