import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { signInAs } from '../../../testing/session';
import { SettingsMenu } from './settings-menu';

const device = vi.hoisted(() => ({ native: true, permission: 'granted', contacts: [] as unknown[] }));

vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => device.native, getPlatform: () => (device.native ? 'ios' : 'web') } }));
vi.mock('@capacitor-community/contacts', () => ({
  Contacts: {
    requestPermissions: async () => ({ contacts: device.permission }),
    getContacts: async () => ({ contacts: device.contacts }),
  },
}));

const COUNTS = { added: 2, updated: 1, unchanged: 3, skipped: 0 };

function importServer() {
  return fakeServer({ 'POST /api/contacts/import': () => json(COUNTS) });
}

async function importContacts() {
  const showToast = vi.fn<ShowToast>();
  renderWithApp(
    <MemoryRouter>
      <SettingsMenu />
    </MemoryRouter>,
    showToast,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
  await userEvent.click(screen.getByRole('menuitem', { name: 'Import contacts' }));
  return showToast;
}

beforeEach(() => {
  signInAs('u1', 'admin');
  device.native = true;
  device.permission = 'granted';
});

describe('import contacts from the device', () => {
  it('sends the contacts that have a name and a phone and shows the counts', async () => {
    device.contacts = [
      { contactId: '1', name: { display: ' Ada Lovelace ' }, phones: [{ number: '+44 20 7946 0000' }, { number: '+1 555' }] },
      { contactId: '2', name: { display: null, given: 'Bo', family: 'Chen' }, phones: [{ number: '+1 555 000 1111' }] },
      { contactId: '3', name: { display: 'No Phone' }, phones: [] },
      { contactId: '4', phones: [{ number: '+1 555 000 2222' }] },
    ];
    const { requests } = importServer();

    const showToast = await importContacts();

    await waitFor(() => expect(showToast).toHaveBeenCalledWith('Import complete: 2 added, 1 updated, 3 unchanged.', 'success', expect.any(Number)));
    expect(requests[0]?.body).toEqual({
      contacts: [
        { name: 'Ada Lovelace', phone_number: '+442079460000' },
        { name: 'Bo Chen', phone_number: '+15550001111' },
      ],
    });
  });

  it('says permission was denied and sends nothing when the user refuses', async () => {
    device.permission = 'denied';
    const { requests } = importServer();

    const showToast = await importContacts();

    await waitFor(() => expect(showToast).toHaveBeenCalledWith('Permission denied.', 'info', expect.any(Number)));
    expect(requests).toEqual([]);
  });

  it.each([
    [[], 'No contacts found.'],
    [[{ contactId: '1', name: { display: 'Ada' }, phones: [] }], 'No contacts with a phone number.'],
  ])('says so when the address book has nothing to import', async (contacts, message) => {
    device.contacts = contacts;
    const { requests } = importServer();

    const showToast = await importContacts();

    await waitFor(() => expect(showToast).toHaveBeenCalledWith(message, 'info', expect.any(Number)));
    expect(requests).toEqual([]);
  });
});

describe('import contacts from a file on the web', () => {
  it('uploads the chosen vCard as a multipart file and shows the counts', async () => {
    device.native = false;
    const { requests } = importServer();
    const showToast = await importContacts();

    const vcard = new File(['BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nTEL:+442079460000\nEND:VCARD\n'], 'team.vcf', { type: 'text/vcard' });
    await userEvent.upload(screen.getByLabelText('Import contacts'), vcard);

    await waitFor(() => expect(showToast).toHaveBeenCalledWith('Import complete: 2 added, 1 updated, 3 unchanged.', 'success', expect.any(Number)));
    const body = requests[0]?.body;
    expect(body).toBeInstanceOf(FormData);
    expect(((body as FormData).get('file') as File).name).toBe('team.vcf');
  });
});
