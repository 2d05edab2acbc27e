import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DropdownMenu } from '../../../components/dropdown-menu';
import { useLanguageToggle } from '../../../components/use-language-toggle';
import { getStoredRole } from '../../../lib/api/session-store';
import { signOut, signOutEverywhere } from '../../../lib/session/sign-out';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { CONTACT_FILE_ACCEPT, useContactImport } from '../hooks/use-contact-import';

const LINKS = [
  { path: '/edit-profile', label: 'settings.editProfile' },
  { path: '/template', label: 'settings.template' },
  { path: '/sender', label: 'settings.sender' },
  { path: '/automated-replies', label: 'settings.automatedReplies' },
  { path: '/canned-replies', label: 'canned.title' },
];
/** Only the owner sees these. */
const OWNER_LINKS = [{ path: '/reports', label: 'reports.menu' }];

export function SettingsMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useLanguageToggle();
  const showToast = useToast();
  const { start: importContacts, fileInput: contactFileInput, importFile } = useContactImport();
  return (
    <>
      <DropdownMenu
        label={t('settings.title')}
        icon="⚙"
        items={[
          ...[...LINKS, ...(getStoredRole() === 'admin' ? OWNER_LINKS : [])].map((link) => ({ label: t(link.label), onSelect: () => navigate(link.path) })),
          { label: language.label, onSelect: () => void language.toggle() },
          { label: t('native.importContacts'), onSelect: importContacts },
          {
            label: t('settings.signOut'),
            onSelect: () => void signOut().then(() => navigate('/login', { replace: true })),
          },
          {
            label: t('settings.signOutEverywhere'),
            onSelect: () =>
              void signOutEverywhere().then(
                () => navigate('/login', { replace: true }),
                () => showToast(t('settings.signOutEverywhereFailed'), 'error', CHAT_TOAST_MS),
              ),
          },
        ]}
      />
      <input
        ref={contactFileInput}
        type="file"
        hidden
        accept={CONTACT_FILE_ACCEPT}
        aria-label={t('native.importContacts')}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
    </>
  );
}
