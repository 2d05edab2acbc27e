import { useEffect, useState } from 'react';
import { useRealtime, useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { getCounts, type StatusFilter, type TabCounts } from '../api/team-api';

/**
 * The counts of the Mine, Unassigned and All tabs for a status and label, asked again when the
 * team changes something. Read once the live stream lets screens read, as the list is: a count
 * read before the stream follows the business would miss a conversation that began meanwhile.
 */
export function useTabCounts(status: StatusFilter, label?: string): TabCounts | null {
  const [counts, setCounts] = useState<TabCounts | null>(null);
  const [version, setVersion] = useState(0);
  const { ready } = useRealtime();

  useEffect(() => {
    if (!ready) return undefined;
    const controller = new AbortController();
    getCounts(status, label, controller.signal)
      .then(setCounts)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('tab counts not loaded', error);
      });
    return () => controller.abort();
  }, [status, label, version, ready]);

  useRealtimeEvents((event) => {
    // A rename changes no count.
    if (event.event === 'new_contact' && event.data.renamed) return;
    if (['conversation_updated', 'new_contact', 'labels_changed', 'reset'].includes(event.event)) setVersion((value) => value + 1);
  });

  return counts;
}
