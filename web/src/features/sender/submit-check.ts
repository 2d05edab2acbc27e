// The sender's checks on submit, in the spec's order (section 5, "Template sender").
import { needsInputs, type TemplateShape } from '../../lib/templates/send-components';

export type SendMode = 'single' | 'bulk';

/** The first rule a submit breaks, as its translation key under `sender.`. */
export type SubmitProblem = 'settingsNotLoaded' | 'noTemplate' | 'noNumber' | 'noRecipients' | 'requiresVariables';

export interface SubmitState {
  phoneNumberId: string | null;
  shape: TemplateShape | null;
  mode: SendMode;
  /** The number typed after the country code. */
  number: string;
  recipients: readonly unknown[];
  components: object[];
}

export function submitProblem(state: SubmitState): SubmitProblem | null {
  if (!state.phoneNumberId) return 'settingsNotLoaded';
  if (!state.shape) return 'noTemplate';
  if (state.mode === 'single' && !state.number.trim()) return 'noNumber';
  if (state.mode === 'bulk' && state.recipients.length === 0) return 'noRecipients';
  if (needsInputs(state.shape) && state.components.length === 0) return 'requiresVariables';
  return null;
}
