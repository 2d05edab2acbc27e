import type { Template } from '../../lib/api/types';
import { buildComponents, emptyInputs, templateShape } from '../../lib/templates/send-components';
import { submitProblem, type SubmitState } from './submit-check';

const withVariables: Template = {
  id: '1',
  name: 'promo',
  language: 'en_US',
  status: 'APPROVED',
  components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Hi' }],
};
const shape = templateShape(withVariables);

const ready: SubmitState = {
  phoneNumberId: '1000001',
  shape,
  mode: 'single',
  number: '1001234567',
  recipients: [],
  components: [{ type: 'header', parameters: [] }],
};

describe('submit checks', () => {
  it('go in the spec order, the first broken rule answering', () => {
    const broken: SubmitState = { ...ready, phoneNumberId: null, shape: null, number: ' ', components: [] };
    expect(submitProblem(broken)).toBe('settingsNotLoaded');
    expect(submitProblem({ ...broken, phoneNumberId: '1000001' })).toBe('noTemplate');
    expect(submitProblem({ ...broken, phoneNumberId: '1000001', shape })).toBe('noNumber');
    expect(submitProblem({ ...broken, phoneNumberId: '1000001', shape, mode: 'bulk' })).toBe('noRecipients');
    expect(submitProblem({ ...broken, phoneNumberId: '1000001', shape, number: '100' })).toBe('requiresVariables');
    expect(submitProblem({ ...broken, phoneNumberId: '1000001', shape, mode: 'bulk', recipients: ['201001234567'] })).toBe(
      'requiresVariables',
    );
    expect(submitProblem(ready)).toBeNull();
  });

  it('let a template without inputs go with no components', () => {
    const plain = templateShape({ ...withVariables, components: [{ type: 'BODY', text: 'Hello' }] });
    expect(submitProblem({ ...ready, shape: plain, components: buildComponents(plain, emptyInputs()) })).toBeNull();
  });

  it('ask for the header file of a media template even when everything else is there', () => {
    expect(submitProblem({ ...ready, components: buildComponents(shape, emptyInputs()) })).toBe('requiresVariables');
  });
});
