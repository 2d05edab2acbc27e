import { useEffect, useState } from 'react';
import { useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { getCounts, type StatusFilter, type TabCounts } from '../api/team-api';

/** The counts of the Mine, Unassigned and All tabs for a status and label, asked again when the team changes something. */
export function useTabCounts(status: StatusFilter, label?: string): TabCounts | null {
  const [counts, setCounts] = useState<TabCounts | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getCounts(status, label, controller.signal)
      .then(setCounts)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('tab counts not loaded', error);
      });
    return () => controller.abort();
  }, [status, label, version]);

  useRealtimeEvents((event) => {
    if (['conversation_updated', 'new_contact', 'labels_changed', 'reset'].includes(event.event)) setVersion((value) => value + 1);
  });

  return counts;
}
