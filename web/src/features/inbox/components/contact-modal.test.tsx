import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ar from '../../../../public/locales/ar/translation.json';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp, testI18n } from '../../../testing/render';
import { ContactModal } from './contact-modal';

describe('contact modal', () => {
  beforeAll(() => testI18n.addResourceBundle('ar', 'translation', ar));
  afterEach(() => act(() => testI18n.changeLanguage('en')));

  it("has the browser say in the app's language that name and phone are required", async () => {
    await act(() => testI18n.changeLanguage('ar'));
    const { requests } = fakeServer({ 'POST /api/contacts/add': () => json({}, 201) });
    renderWithApp(<ContactModal onClose={() => undefined} onSaved={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'حفظ' }));
    expect(screen.getByLabelText('الاسم')).toHaveProperty('validationMessage', 'يرجى ملء هذا الحقل.');
    expect(screen.getByLabelText('رقم الهاتف')).toHaveProperty('validationMessage', 'يرجى ملء هذا الحقل.');
    expect(requests).toHaveLength(0);
  });

  it('shows a number that is already a contact in Arabic, naming it', async () => {
    await act(() => testI18n.changeLanguage('ar'));
    const toast = vi.fn<ShowToast>();
    const text = 'A contact with the number 15550001111 already exists';
    fakeServer({ 'POST /api/contacts/add': () => json({ detail: text, message: text, code: 'conflict' }, 409) });
    renderWithApp(<ContactModal onClose={() => undefined} onSaved={() => undefined} />, toast);
    await userEvent.type(screen.getByLabelText('الاسم'), 'Omar');
    await userEvent.type(screen.getByLabelText('رقم الهاتف'), '+1 555 000 1111');
    await userEvent.click(screen.getByRole('button', { name: 'حفظ' }));
    await vi.waitFor(() => expect(toast).toHaveBeenCalledWith('توجد جهة اتصال بالرقم 15550001111 بالفعل.', 'error', 5000));
  });

  it('gives the focus back to the refused phone, or to Save when the server failed', async () => {
    const text = "'12' is not a valid phone number";
    let answer = json({ detail: text, message: text, code: 'validation_failed' }, 422);
    fakeServer({ 'POST /api/contacts/add': () => answer });
    renderWithApp(<ContactModal onClose={() => undefined} onSaved={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Omar');
    await userEvent.type(screen.getByLabelText('Phone number'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.getByLabelText('Phone number')).toHaveFocus());
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('aria-invalid', 'true');
    answer = json({ detail: 'Try again soon', message: 'Try again soon', code: 'unavailable' }, 503);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus());
    expect(screen.getByLabelText('Phone number')).not.toHaveAttribute('aria-invalid');
  });

  it("names a new contact by the server's key, not by the number as typed", async () => {
    const onSaved = vi.fn<(key: string, name: string) => void>();
    fakeServer({ 'POST /api/contacts/add': () => json({ status: 'success', phone_number: '15550001111', name: 'Omar' }, 201) });
    renderWithApp(<ContactModal onClose={() => undefined} onSaved={onSaved} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Omar');
    await userEvent.type(screen.getByLabelText('Phone number'), '+1 555 000 1111');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith('15550001111', 'Omar'));
  });
});
