import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { GOOGLE_SIGN_IN_PATH, isGoogleEnabled } from '../api/auth-api';

/**
 * The native app signs in with the device's Google account (an ID token for the server); the
 * browser follows the server's redirect flow, and answers false as it leaves the page.
 */
async function signInWithGoogle(): Promise<boolean> {
  const { isNative } = await import('../../../lib/native/platform');
  if (isNative()) return (await import('../../../lib/native/google')).nativeGoogleSignIn();
  window.location.assign(GOOGLE_SIGN_IN_PATH);
  return new Promise(() => undefined);
}

/** Google sign-in; disabled with a note when the server has no Google client configured. */
export function GoogleButton() {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

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
          void signInWithGoogle().then(
            (signedIn) => (signedIn ? navigate('/whatsapp', { replace: true }) : setBusy(false)),
            (error: unknown) => {
              // Google sign-in failures are only logged (spec section 8).
              console.error('Google sign-in', error);
              setBusy(false);
            },
          );
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
