import { useTranslation } from 'react-i18next';

/**
 * What shows while a screen's code loads. It is also what shows while the translations load, so it
 * never waits for them: until they are in it is blank.
 */
export function PageLoading() {
  const { t, ready } = useTranslation(undefined, { useSuspense: false });
  return <div className="centered">{ready ? t('loading') : null}</div>;
}
