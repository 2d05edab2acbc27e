import type { Template } from '../../lib/api/types';
import { bodyParameters, fillPlaceholders, placeholders } from './template-text';

const template: Template = {
  id: 't1',
  name: 'order_update',
  language: 'en',
  status: 'APPROVED',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order news' },
    { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships {{ 3 }}. Thanks {{1}}!' },
  ],
};

describe('template text', () => {
  it('finds each placeholder once, in order', () => {
    expect(placeholders('Hi {{1}}, order {{2}} ships {{ 3 }}. Thanks {{1}}!')).toEqual([1, 2, 3]);
  });

  it('previews the filled text, keeping placeholders still empty', () => {
    expect(fillPlaceholders('Hi {{1}}, order {{2}}', { 1: 'Cora' })).toBe('Hi Cora, order {{2}}');
  });

  it('builds the body parameters for sending', () => {
    expect(bodyParameters(template, { 1: 'Cora', 2: '42', 3: 'today' })).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Cora' },
          { type: 'text', text: '42' },
          { type: 'text', text: 'today' },
        ],
      },
    ]);
  });
});
