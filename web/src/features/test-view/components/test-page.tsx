import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../../lib/api/client';

/** The small /test view: one button that lists the raw answer of GET /api/users. */
export function TestPage() {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<string>('');
  const load = async () => {
    try {
      setAnswer(JSON.stringify(await apiRequest('/api/users'), null, 2));
    } catch (error) {
      setAnswer(String(error));
    }
  };
  return (
    <main className="test-view">
      <button type="button" className="primary" onClick={() => void load()}>
        {t('test.getAllUsers')}
      </button>
      <pre aria-label={t('test.answer')}>{answer}</pre>
    </main>
  );
}
