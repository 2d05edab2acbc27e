import { apiRequest } from '../../../lib/api/client';
import type { MediaType } from '../../../lib/media/media-draft';

/** A quick-reply button: the id is what a press sends back, the title what the customer sees. */
export interface ReplyButton {
  id: string;
  title: string;
}

export interface ListRowDraft {
  id: string;
  title: string;
  description: string;
}

export interface ListSectionDraft {
  title: string;
  rows: ListRowDraft[];
}

/** The interactive list as the server stores it (spec section 3, "Interactive list"). */
export interface InteractiveListPayload {
  type: 'list';
  header: { type: 'text'; text: string };
  body: { text: string };
  footer?: { text: string };
  action: { button: string; sections: { title: string; rows: { id: string; title: string; description?: string }[] }[] };
}

/** An automated reply as every route answers it (docs/API.md, "Automated replies"). */
export const MATCH_MODES = ['exact', 'contains', 'starts_with'] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

export interface AutomatedReply {
  _id: string;
  trigger: string;
  type: 'text' | 'interactive';
  responseText: string;
  caption: string;
  isActive: boolean;
  isDefault: boolean;
  cooldownHours: number;
  /** How the trigger matches the customer's text (older servers leave it out: exact). */
  matchMode?: MatchMode;
  quickReplyButtons: ReplyButton[];
  mediaUrl: string | null;
  mediaType: MediaType | null;
  interactive: InteractiveListPayload | null;
  flowStepCount: number;
  updatedAt: string;
}

/** A stored flow step (GET /api/automated-replies/{id}/flows). */
export interface StoredFlowStep {
  trigger: string;
  responseText: string;
  caption: string;
  quickReplyButtons: ReplyButton[];
  mediaUrl: string | null;
  mediaType: MediaType | null;
}

/** What the form reads of a template: quick-reply button texts become trigger suggestions. */
export interface TemplateSummary {
  name: string;
  status: string;
  components: { type: string; buttons?: { type: string; text?: string }[] }[];
}

const BASE = '/api/automated-replies';

export function getReplies(): Promise<AutomatedReply[]> {
  return apiRequest(`${BASE}/`);
}

export function getFlowSteps(id: string): Promise<StoredFlowStep[]> {
  return apiRequest(`${BASE}/${encodeURIComponent(id)}/flows`);
}

export function createReply(form: FormData): Promise<AutomatedReply> {
  return apiRequest(`${BASE}/`, { method: 'POST', form });
}

export function updateReply(id: string, form: FormData): Promise<AutomatedReply> {
  return apiRequest(`${BASE}/${encodeURIComponent(id)}`, { method: 'PATCH', form });
}

export function deleteReply(id: string): Promise<unknown> {
  return apiRequest(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function getTemplates(): Promise<TemplateSummary[]> {
  return apiRequest('/api/templates');
}
