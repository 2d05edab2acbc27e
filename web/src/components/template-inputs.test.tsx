import { act, screen } from '@testing-library/react';
import ar from '../../public/locales/ar/translation.json';
import { emptyInputs, templateShape } from '../lib/templates/send-components';
import { renderWithApp, testI18n } from '../testing/render';
import { TemplateInputs } from './template-inputs';

const shape = templateShape({
  id: '1',
  name: 'track',
  language: 'en',
  status: 'APPROVED',
  components: [
    { type: 'BODY', text: 'Your order' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://example.com/t/{{1}}' }] },
  ],
});

describe('template inputs', () => {
  beforeAll(() => testI18n.addResourceBundle('ar', 'translation', ar));
  afterEach(() => act(() => testI18n.changeLanguage('en')));

  it('keeps an English button text and url whole inside an Arabic label, quotes and brackets in place', async () => {
    await act(() => testI18n.changeLanguage('ar'));
    renderWithApp(<TemplateInputs shape={shape} inputs={emptyInputs()} onChange={() => undefined} />);
    // Each Latin run is isolated (U+2068 … U+2069), so the right-to-left label does not move the
    // quotes and brackets around it.
    expect(screen.getByRole('textbox', { name: 'متغير الزر «\u2068Track\u2069» (\u2068https://example.com/t/{{1}}\u2069)' })).toBeTruthy();
  });
});
