import { useCallback, useEffect, useState } from 'react';
import type { Label } from '../api/types';
import { getLabels } from '../api/labels';
import { useRealtimeEvents } from '../realtime/realtime-context';

/**
 * The business's labels, by name: loaded once, replaced by every `labels_changed` event, and
 * loaded again after a `reset` or when `reload` is called.
 */
export function useLabels(): { labels: Label[]; setLabels: (labels: Label[]) => void; reload: () => void } {
  const [labels, setLabels] = useState<Label[]>([]);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getLabels(controller.signal)
      .then(setLabels)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('labels not loaded', error);
      });
    return () => controller.abort();
  }, [version]);

  useRealtimeEvents((event) => {
    if (event.event === 'labels_changed') setLabels(event.data.labels);
    else if (event.event === 'reset') setVersion((value) => value + 1);
  });

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { labels, setLabels, reload };
}
