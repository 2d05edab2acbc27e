import { ApiError, apiRequest, apiResponse, detailOf } from '../../../lib/api/client';
import type { Template } from '../../../lib/api/types';
import { templateFormData } from '../template-draft';

/** GET /api/templates: the business's templates, synced from WhatsApp as they are read. */
export function getTemplates(): Promise<Template[]> {
  return apiRequest('/api/templates');
}

/** DELETE /api/templates/{name}: every language of the template, at WhatsApp and here. */
export function deleteTemplate(name: string): Promise<unknown> {
  return apiRequest(`/api/templates/${encodeURIComponent(name)}`, { method: 'DELETE' });
}

/** How a submission ended (spec section 8, template creation): a translation key and its detail. */
export type Submission =
  | { ok: true; result: unknown }
  | { ok: false; key: string; detail?: string };

/** The refusal's detail as the user reads it (the server's English only in English), else nothing. */
function detailField(status: number, body: unknown): string | undefined {
  return detailOf(new ApiError(status, body), '') || undefined;
}

/** POST /api/create-template (multipart: `template` JSON, `file` for a media header). */
export async function createTemplate(template: Record<string, unknown>, file: File | null): Promise<Submission> {
  try {
    const response = await apiResponse('/api/create-template', { method: 'POST', form: templateFormData(template, file) });
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : null;
    if (response.status !== 200 && response.status !== 201) {
      return { ok: false, key: 'templateForm.status.submissionErrorResponse', detail: detailField(response.status, body) };
    }
    const result = (body as Record<string, unknown> | null)?.result;
    return { ok: true, result: result ?? body };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, key: 'templateForm.status.serverError', detail: detailField(error.status, error.body) };
    // fetch rejects with a TypeError when no answer came back at all.
    if (error instanceof TypeError) return { ok: false, key: 'templateForm.status.networkError' };
    return { ok: false, key: 'templateForm.status.submissionError', detail: error instanceof Error ? error.message : String(error) };
  }
}
