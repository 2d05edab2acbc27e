import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GOOGLE_SIGN_IN_PATH, isGoogleEnabled } from '../api/auth-api';

/** Google sign-in; disabled with a note when the server has no Google client configured. */
export function GoogleButton() {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    isGoogleEnabled()
      .then((value) => live && setEnabled(value))
      .catch((error: unknown) => {
        // Google sign-in failures are only logged (spec section 8).
        console.error('Google sign-in config', error);
        if (live) setEnabled(false);
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="google">
      <button
        type="button"
        className="google-button"
        disabled={enabled !== true || busy}
        aria-describedby={enabled === false ? 'google-note' : undefined}
        onClick={() => {
          setBusy(true);
          window.location.assign(GOOGLE_SIGN_IN_PATH);
        }}
      >
        {busy ? t('auth.signingIn') : t('auth.google')}
      </button>
      {enabled === false && (
        <p id="google-note" className="note">
          {t('auth.googleUnavailable')}
        </p>
      )}
    </div>
  );
}
