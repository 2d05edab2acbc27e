// Templates and what the sandbox received, for the sender's browser tests: a template submitted
// through the API and approved by the sandbox's review, and the template messages it accepted.
import assert from 'node:assert/strict';
import { BASE_URL } from './browser.mjs';

const TEMPLATE_APPROVAL_MS = 20_000;

/** A JSON call of the API as the account of `tokens`; fails the test on an error status. */
export async function api(tokens, path, init = {}) {
  const response = await fetch(`${BASE_URL}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${tokens.accessToken}`, ...init.headers },
  });
  const body = await response.json();
  assert.ok(response.ok, `${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** The `init` of a JSON request for `api`: `api(tokens, path, jsonRequest('PATCH', body))`. */
export const jsonRequest = (method, body) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Submits a template through the API and waits until the sandbox's review approved it. */
export async function approvedTemplate(tokens, name, components, headerFile = null) {
  const template = { name, language: 'en_US', category: 'UTILITY', parameter_format: 'POSITIONAL', components };
  const form = new FormData();
  form.set('template', JSON.stringify(template));
  if (headerFile) form.set('file', new Blob([headerFile], { type: 'image/png' }), 'header.png');
  await api(tokens, '/api/create-template', { method: 'POST', body: form });
  const deadline = Date.now() + TEMPLATE_APPROVAL_MS;
  for (;;) {
    const list = await api(tokens, '/api/templates');
    if (list.some((t) => t.name === name && t.status === 'APPROVED')) return;
    assert.ok(Date.now() < deadline, `${name} was not approved: ${JSON.stringify(list)}`);
    await new Promise((wait) => setTimeout(wait, 250));
  }
}

/** The template messages the sandbox accepted for the business's number. */
export async function sandboxTemplates(tokens) {
  const profile = await api(tokens, '/identity/users/profile');
  const response = await fetch(`${BASE_URL}/sandbox/sent?phone_number_id=${profile.phoneNumberId}`, {
    headers: { Authorization: `Bearer ${profile.accessToken}` },
  });
  assert.equal(response.status, 200);
  return (await response.json()).messages.map((m) => m.body).filter((body) => body.type === 'template');
}
