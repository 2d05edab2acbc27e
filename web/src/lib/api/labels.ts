// The business's labels: the profile page manages them, the inbox puts them on conversations
// and filters by them.
import { apiRequest } from './client';
import type { Label } from './types';

/** Every signed-in user: the business's labels, by name. */
export async function getLabels(signal?: AbortSignal): Promise<Label[]> {
  const answer = await apiRequest<{ labels: Label[] }>('/api/labels', { signal });
  return answer.labels;
}
