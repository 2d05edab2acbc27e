// The business's staff accounts: the profile page manages them, the inbox assigns conversations
// to them.
import { apiRequest } from './client';

/** A staff account of the owner's business (GET /identity/users/agents). */
export interface Agent {
  _id: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
}

/** Owner only: the business's agents. */
export function listAgents(): Promise<Agent[]> {
  return apiRequest('/identity/users/agents');
}
