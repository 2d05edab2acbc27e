import type { Agent } from '../../../lib/api/agents';
import { apiRequest } from '../../../lib/api/client';

/** GET /identity/users/profile: the caller, plus the business's credentials (some owner only). */
export interface Profile {
  _id: string;
  firstName?: string;
  lastName?: string;
  username?: string;
  email?: string;
  role?: string;
  language?: string;
  phoneNumberId?: string;
  phoneNumber?: string;
  whatsappBusinessAccountID?: string;
  appId?: string;
  accessToken?: string;
  verifyToken?: string;
  appSecretSet?: boolean;
  /** Owner only: how new conversations get a holder. */
  assignment_mode?: AssignmentMode;
  /** Owner only: minutes a claimed conversation may wait for a reply (0 = no limit). */
  claim_timeout_minutes?: number;
}

export type AssignmentMode = 'manual' | 'round_robin';

export type ProfilePatch = Partial<Record<string, string | number>>;

export interface AgentPayload {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password?: string;
}

export function getProfile(): Promise<Profile> {
  return apiRequest('/identity/users/profile');
}

export function updateProfile(patch: ProfilePatch): Promise<Profile> {
  return apiRequest('/identity/users/profile', { method: 'PATCH', json: patch });
}

export function createAgent(agent: AgentPayload): Promise<Agent> {
  return apiRequest('/identity/users/agents', { method: 'POST', json: agent });
}

export function updateAgent(id: string, agent: AgentPayload): Promise<Agent> {
  return apiRequest(`/identity/users/agents/${encodeURIComponent(id)}`, { method: 'PATCH', json: agent });
}

export function deleteAgent(id: string): Promise<unknown> {
  return apiRequest(`/identity/users/agents/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
