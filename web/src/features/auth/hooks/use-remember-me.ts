import { useEffect, useState } from 'react';
import { markPromptedForSave, rememberedUser, storeRememberedUser } from '../../../lib/preferences/preferences';

/** How long after load the remember-me check runs (spec section 4). */
export const REMEMBER_PROMPT_DELAY_MS = 500;

interface PasswordCredentialConstructor {
  new (data: { id: string; password: string }): Credential;
}

/**
 * Remember-me state of the login form. The username is prefilled at once when remembered; 500 ms
 * after load the check fills it if the field is still empty (a browser autofill may have raced it).
 * After a remembered login the browser is asked once to save the credentials.
 */
export function useRememberMe(username: string, setUsername: (value: string) => void) {
  const [remember, setRemember] = useState(() => rememberedUser().rememberUser);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      const stored = rememberedUser();
      if (stored.rememberUser && stored.lastUsername && !username) setUsername(stored.lastUsername);
    }, REMEMBER_PROMPT_DELAY_MS);
    return () => window.clearTimeout(timer);
    // The check runs once after load, not on every keystroke.
    // oxlint-disable-next-line react/exhaustive-deps
  }, []);

  const afterLogin = (loginName: string, password: string) => {
    storeRememberedUser(remember, loginName);
    if (!remember || rememberedUser().promptedForSave) return;
    markPromptedForSave();
    const Credential = (window as unknown as { PasswordCredential?: PasswordCredentialConstructor }).PasswordCredential;
    if (Credential) void navigator.credentials.store(new Credential({ id: loginName, password })).catch(() => undefined);
  };

  const toggle = (value: boolean) => {
    setRemember(value);
    if (!value) storeRememberedUser(false, '');
  };

  return { remember, setRemember: toggle, afterLogin };
}
