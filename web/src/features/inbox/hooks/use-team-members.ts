import { useEffect, useState } from 'react';
import { getTeamMembers, type TeamMember } from '../api/team-api';

/** The business's users, read the first time `wanted` is true (the composer turns to notes). */
export function useTeamMembers(wanted: boolean): TeamMember[] {
  const [members, setMembers] = useState<TeamMember[] | null>(null);
  const load = wanted && members === null;
  useEffect(() => {
    if (!load) return;
    const controller = new AbortController();
    getTeamMembers(controller.signal)
      .then(setMembers)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('team members not loaded', error);
      });
    return () => controller.abort();
  }, [load]);
  return members ?? [];
}
