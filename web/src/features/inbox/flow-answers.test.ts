import { flowAnswers, readableValue } from './flow-answers';

describe('flow answers', () => {
  it('labels each answer and leaves out the flow token', () => {
    expect(flowAnswers({ flow_token: 'abc', preferred_date: '2026-12-01', guests: 3 })).toEqual([
      { label: 'preferred date', value: '2026-12-01' },
      { label: 'guests', value: '3' },
    ]);
  });

  it('reads nested answers inline', () => {
    expect(readableValue({ size: 'M', extras: ['gift wrap', 'card'] })).toBe('size: M; extras: gift wrap, card');
    expect(readableValue(null)).toBe('—');
  });

  it('shows a response that is not a JSON object as one answer', () => {
    expect(flowAnswers('not json {')).toEqual([{ label: '', value: 'not json {' }]);
    expect(flowAnswers('')).toEqual([]);
  });
});
