import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { accountLanguage, googleSignInPath, isGoogleEnabled } from '../api/auth-api';

/**
 * The native app signs in with the device's Google account (an ID token for the server); the
 * browser follows the server's redirect flow, and answers false as it leaves the page. An account
 * made this way takes `language`, as one made on the sign-up form does.
 */
async function signInWithGoogle(language: 'en' | 'ar' | null): Promise<boolean> {
  const { isNative } = await import('../../../lib/native/platform');
  if (isNative()) return (await import('../../../lib/native/google')).nativeGoogleSignIn(language);
  window.location.assign(googleSignInPath(language));
  return new Promise(() => undefined);
}

/** Google sign-in; disabled with a note when the server has no Google client configured. */
export function GoogleButton() {
  const { t, i18n } = useTranslation();
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
          void signInWithGoogle(accountLanguage(i18n.resolvedLanguage)).then(
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
