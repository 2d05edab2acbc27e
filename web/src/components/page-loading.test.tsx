import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import ar from '../../public/locales/ar/translation.json';
import { renderWithApp, testI18n } from '../testing/render';
import { PageLoading } from './page-loading';

describe('page loading', () => {
  afterEach(() => act(() => testI18n.changeLanguage('en')));

  it('says it is loading in the interface language', async () => {
    testI18n.addResourceBundle('ar', 'translation', ar);
    renderWithApp(<PageLoading />);
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    await act(() => testI18n.changeLanguage('ar'));
    expect(await screen.findByText('جارٍ التحميل...')).toBeInTheDocument();
  });

  it('stays blank while the translations are still on their way, never showing a key', () => {
    const loading = i18next.createInstance();
    const { container } = render(
      <I18nextProvider i18n={loading}>
        <PageLoading />
      </I18nextProvider>,
    );
    expect(container).toHaveTextContent(/^$/);
  });
});
