// The pure part of the /edit-profile page: form values from the server's answers, and the bodies
// the forms send back.
import type { Agent } from '../../lib/api/agents';
import type { AgentPayload, Profile, ProfilePatch } from './api/profile-api';

/** The business's provider credentials; only the owner may change them. */
export const CREDENTIAL_FIELDS = ['phoneNumberId', 'accessToken', 'verifyToken', 'phoneNumber', 'whatsappBusinessAccountID', 'appId'] as const;

export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

/** Credentials that grant access: masked on screen until revealed. */
export const SECRET_FIELDS: ReadonlySet<CredentialField> = new Set(['accessToken', 'verifyToken']);

export interface ProfileForm extends Record<CredentialField, string> {
  firstName: string;
  lastName: string;
  language: 'en' | 'ar';
  /** Write-only: blank keeps the stored secret. */
  appSecret: string;
}

export function profileFormFrom(profile: Profile): ProfileForm {
  const credentials = Object.fromEntries(CREDENTIAL_FIELDS.map((field) => [field, profile[field] ?? ''])) as Record<CredentialField, string>;
  return {
    firstName: profile.firstName ?? '',
    lastName: profile.lastName ?? '',
    language: profile.language === 'ar' ? 'ar' : 'en',
    appSecret: '',
    ...credentials,
  };
}

/**
 * The PATCH body: names and language for everyone; the credentials only from the owner (the
 * server refuses an agent that sends any), and the app secret only when one was typed.
 */
export function profilePatch(form: ProfileForm, isOwner: boolean): ProfilePatch {
  const patch: ProfilePatch = { firstName: form.firstName, lastName: form.lastName, language: form.language };
  if (!isOwner) return patch;
  for (const field of CREDENTIAL_FIELDS) patch[field] = form[field];
  if (form.appSecret.trim()) patch.appSecret = form.appSecret;
  return patch;
}

export interface AgentForm {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
}

export const EMPTY_AGENT: AgentForm = { firstName: '', lastName: '', username: '', email: '', password: '' };

/** Editing starts from the agent's values with a blank password (blank keeps the old one). */
export function agentFormFrom(agent: Agent): AgentForm {
  return { firstName: agent.firstName, lastName: agent.lastName, username: agent.username, email: agent.email, password: '' };
}

/** The agent body: on edit a blank password is left out, so the server keeps the old one. */
export function agentPayload(form: AgentForm, editing: boolean): AgentPayload {
  const { password, ...rest } = form;
  if (editing && !password) return rest;
  return { ...rest, password };
}

const AGENT_FIELDS = Object.keys(EMPTY_AGENT) as (keyof AgentForm)[];

/**
 * The agent field a server refusal is about, read from its English text's first word
 * ("Username already exists", "password is one of the most common passwords; …"); null when
 * the text names none or more than one ("Username or email already exists").
 */
export function agentFieldOf(texts: (string | undefined)[]): keyof AgentForm | null {
  for (const text of texts) {
    if (!text || / or /i.test(text)) continue;
    const first = text.match(/^\w+/)?.[0].toLowerCase();
    const field = AGENT_FIELDS.find((name) => name.toLowerCase() === first);
    if (field) return field;
  }
  return null;
}
