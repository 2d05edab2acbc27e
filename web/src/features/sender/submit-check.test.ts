import type { Template } from '../../lib/api/types';
import { buildComponents, emptyFields, emptyInputs, templateShape } from '../../lib/templates/send-components';
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
  emptyFields: [],
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

  it('refuse empty typed values last, once everything the spec checks is there', () => {
    const typed = templateShape({ ...withVariables, components: [{ type: 'BODY', text: 'Order {{1}} ships {{2}}' }] });
    const values = { body_var_1: 'A-7', body_var_2: ' ' };
    const components = buildComponents(typed, { ...emptyInputs(), values });
    const empty = emptyFields(typed, { ...emptyInputs(), values });
    expect(empty.map((field) => field.key)).toEqual(['body_var_2']);
    expect(submitProblem({ ...ready, shape: typed, components, emptyFields: empty })).toBe('emptyVariables');
    expect(submitProblem({ ...ready, shape: typed, number: '', components, emptyFields: empty })).toBe('noNumber');
  });

  it('ask for the header file of a media template even when everything else is there', () => {
    expect(submitProblem({ ...ready, components: buildComponents(shape, emptyInputs()) })).toBe('requiresVariables');
  });
});
