import { useCallback, useEffect, useRef, useState } from 'react';
import type { BulkSendProgressEvent } from '../../../lib/realtime/events';
import { useRealtime, useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { getJob } from '../api/sender-api';

/**
 * Follows a bulk send job through its live `bulk_send_progress` events. Those are transient (never
 * replayed), so the job's report is also read once the socket is open, and again after every
 * reconnect; counts never go back and nothing follows the finished report.
 */
export function useBulkJob(onProgress: (progress: BulkSendProgressEvent) => void) {
  const { state } = useRealtime();
  const [jobId, setJobId] = useState<string | null>(null);
  const [finished, setFinished] = useState(false);
  const latest = useRef<BulkSendProgressEvent | null>(null);
  const following = useRef<string | null>(null);
  const report = useRef(onProgress);
  useEffect(() => {
    report.current = onProgress;
  });

  const apply = useCallback((progress: BulkSendProgressEvent) => {
    const current = latest.current;
    if (progress.job_id !== following.current) return;
    if (current && (current.finished || progress.done < current.done)) return;
    latest.current = progress;
    if (progress.finished) setFinished(true);
    report.current(progress);
  }, []);

  useRealtimeEvents((event) => {
    if (event.event === 'bulk_send_progress') apply(event.data);
  });

  useEffect(() => {
    if (!jobId || state !== 'open') return;
    getJob(jobId)
      .then(apply)
      .catch((error: unknown) => console.warn('bulk job report failed', error));
  }, [apply, jobId, state]);

  const follow = useCallback((id: string) => {
    following.current = id;
    latest.current = null;
    setFinished(false);
    setJobId(id);
  }, []);

  return { follow, running: jobId !== null && !finished };
}
