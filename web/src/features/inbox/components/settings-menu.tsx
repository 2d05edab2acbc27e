import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DropdownMenu } from '../../../components/dropdown-menu';
import { useLanguageToggle } from '../../../components/use-language-toggle';
import { getStoredRole } from '../../../lib/api/session-store';
import { signOut } from '../../../lib/session/sign-out';

const LINKS = [
  { path: '/edit-profile', label: 'settings.editProfile' },
  { path: '/template', label: 'settings.template' },
  { path: '/sender', label: 'settings.sender' },
  { path: '/automated-replies', label: 'settings.automatedReplies' },
];
/** Only the owner sees these. */
const OWNER_LINKS = [{ path: '/reports', label: 'reports.menu' }];

export function SettingsMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useLanguageToggle();
  return (
    <DropdownMenu
      label={t('settings.title')}
      icon="⚙"
      items={[
        ...[...LINKS, ...(getStoredRole() === 'admin' ? OWNER_LINKS : [])].map((link) => ({ label: t(link.label), onSelect: () => navigate(link.path) })),
        { label: language.label, onSelect: () => void language.toggle() },
        {
          label: t('settings.signOut'),
          onSelect: () => void signOut().then(() => navigate('/login', { replace: true })),
        },
      ]}
    />
  );
}
