import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import ar from '../../../../public/locales/ar/translation.json';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp, testI18n } from '../../../testing/render';
import { RegisterPage } from './register-page';

const TAKEN = { detail: 'Username already exists', message: 'Username already exists', code: 'conflict' };

function renderPage() {
  fakeServer({
    'GET /identity/auth/google/config': () => json({ enabled: false }),
    'POST /identity/auth/register': () => json(TAKEN, 409),
  });
  renderWithApp(
    <MemoryRouter initialEntries={['/register']}>
      <RegisterPage />
    </MemoryRouter>,
  );
}

async function fillIn(labels: Record<string, string>) {
  for (const [label, value] of Object.entries(labels)) await userEvent.type(screen.getByLabelText(label, { exact: true }), value);
}

describe('register page', () => {
  beforeAll(() => testI18n.addResourceBundle('ar', 'translation', ar));
  afterEach(() => act(() => testI18n.changeLanguage('en')));

  it("has the browser say in the app's language what a required field lacks", async () => {
    await act(() => testI18n.changeLanguage('ar'));
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'إنشاء حساب' }));
    expect(screen.getByLabelText('الاسم الأول')).toHaveProperty('validationMessage', 'يرجى ملء هذا الحقل.');
    expect(screen.getByLabelText('البريد الإلكتروني')).toHaveProperty('validationMessage', 'يرجى ملء هذا الحقل.');
  });

  it('judges a field afresh once its value changed, also when the page filled it in', async () => {
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const username = screen.getByLabelText('Username');
    expect(username).toHaveProperty('validationMessage', 'Please fill in this field.');
    await userEvent.type(screen.getByLabelText('First name'), 'Mary');
    await userEvent.tab();
    expect(username).toHaveValue('mary');
    expect(username).toHaveProperty('validationMessage', '');
    await userEvent.type(screen.getByLabelText('Email'), 'mary');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByLabelText('Email')).toHaveProperty('validationMessage', 'Enter an email address, such as name@example.com.');
  });

  it("shows a taken username in Arabic, and the server's words in English", async () => {
    await act(() => testI18n.changeLanguage('ar'));
    renderPage();
    await fillIn({ 'الاسم الأول': 'Ann', 'اسم العائلة': 'Lee', 'اسم المستخدم': 'ann', 'البريد الإلكتروني': 'ann@example.com', 'كلمة المرور': 'long-enough-1', 'تأكيد كلمة المرور': 'long-enough-1' });
    await userEvent.click(screen.getByRole('button', { name: 'إنشاء حساب' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('اسم المستخدم هذا مستخدم بالفعل.');

    await act(() => testI18n.changeLanguage('en'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Username already exists$/);
  });
});
