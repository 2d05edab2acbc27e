import { useEffect, useState } from 'react';
import { getCannedReplies, type CannedReply } from '../../../lib/api/canned-replies';
import { apiRequest } from '../../../lib/api/client';

interface Me {
  firstName?: string;
  lastName?: string;
  username?: string;
}

export interface CannedSource {
  replies: CannedReply[];
  /** The signed-in member's name, for `{{agent}}`. */
  agent: string;
}

/** The business's canned replies and the signed-in member's name, loaded once per chat. */
export function useCannedReplies(): CannedSource {
  const [source, setSource] = useState<CannedSource>({ replies: [], agent: '' });
  useEffect(() => {
    let live = true;
    Promise.all([getCannedReplies(), apiRequest<Me>('/api/users/profile')])
      .then(([replies, me]) => {
        const agent = `${me.firstName ?? ''} ${me.lastName ?? ''}`.trim() || (me.username ?? '');
        if (live) setSource({ replies, agent });
      })
      .catch((error: unknown) => console.warn('canned replies', error));
    return () => {
      live = false;
    };
  }, []);
  return source;
}
