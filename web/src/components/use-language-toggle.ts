import { useTranslation } from 'react-i18next';
import { apiRequest } from '../lib/api/client';
import { isAuthenticated } from '../lib/api/session-store';
import { currentLanguage, setLanguage } from '../lib/i18n/i18n';
import { useToast } from '../lib/toast/toast-context';

/**
 * Switches en ↔ ar at once. Signed in, the server is told too; if it refuses, the language
 * reverts and failedToUpdateLanguage is shown.
 */
export function useLanguageToggle(): { label: string; toggle: () => Promise<void> } {
  const { t } = useTranslation();
  const showToast = useToast();
  const previous = currentLanguage();
  const next = previous === 'en' ? 'ar' : 'en';
  const toggle = async () => {
    await setLanguage(next);
    if (!isAuthenticated()) return;
    try {
      await apiRequest('/api/users/toggle-language', { method: 'PATCH' });
    } catch {
      await setLanguage(previous);
      showToast(t('failedToUpdateLanguage'), 'error');
    }
  };
  return { label: t(next === 'ar' ? 'language.switchToArabic' : 'language.switchToEnglish'), toggle };
}
