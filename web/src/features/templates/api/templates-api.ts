import { ApiError, apiRequest, apiResponse } from '../../../lib/api/client';
import { templateFormData } from '../template-draft';

/** A template of the business as GET /api/templates lists it. */
export interface TemplateSummary {
  id: string;
  name: string;
  language: string;
  status: string;
}

export function getTemplates(): Promise<TemplateSummary[]> {
  return apiRequest('/api/templates');
}

/** How a submission ended (spec section 8, template creation): a translation key and its detail. */
export type Submission =
  | { ok: true; result: unknown }
  | { ok: false; key: string; detail?: string };

function detailField(body: unknown): string | undefined {
  const detail = (body as Record<string, unknown> | null)?.detail;
  return typeof detail === 'string' ? detail : undefined;
}

/** POST /api/create-template (multipart: `template` JSON, `file` for a media header). */
export async function createTemplate(template: Record<string, unknown>, file: File | null): Promise<Submission> {
  try {
    const response = await apiResponse('/api/create-template', { method: 'POST', form: templateFormData(template, file) });
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : null;
    if (response.status !== 200 && response.status !== 201) {
      return { ok: false, key: 'templateForm.status.submissionErrorResponse', detail: detailField(body) ?? (response.statusText || undefined) };
    }
    const result = (body as Record<string, unknown> | null)?.result;
    return { ok: true, result: result ?? body };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, key: 'templateForm.status.serverError', detail: error.detail ?? error.message };
    // fetch rejects with a TypeError when no answer came back at all.
    if (error instanceof TypeError) return { ok: false, key: 'templateForm.status.networkError' };
    return { ok: false, key: 'templateForm.status.submissionError', detail: error instanceof Error ? error.message : String(error) };
  }
}
