// The owner's changes to the business's labels (the list itself is lib/api/labels.ts).
import { apiRequest } from '../../../lib/api/client';
import type { Label } from '../../../lib/api/types';

export function createLabel(name: string, color: string): Promise<Label> {
  return apiRequest('/api/labels', { method: 'POST', json: { name, color } });
}

/** A new name and/or colour. */
export function updateLabel(id: string, change: Partial<Pick<Label, 'name' | 'color'>>): Promise<Label> {
  return apiRequest(`/api/labels/${encodeURIComponent(id)}`, { method: 'PATCH', json: change });
}

/** The label leaves every conversation that carries it. */
export function deleteLabel(id: string): Promise<unknown> {
  return apiRequest(`/api/labels/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
