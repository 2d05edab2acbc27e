import { useEffect, useState } from 'react';
import { getConfig } from '../api/inbox-api';

/** The business's WhatsApp phone number id, needed to send and to name conversation channels. */
export function usePhoneNumberId(): string | null {
  const [phoneNumberId, setPhoneNumberId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getConfig()
      .then((config) => live && setPhoneNumberId(config.phoneNumberId))
      .catch((error: unknown) => console.warn('config failed', error));
    return () => {
      live = false;
    };
  }, []);
  return phoneNumberId;
}
