import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { detailOf, messageOf } from '../../../lib/api/client';
import type { Template } from '../../../lib/api/types';
import { getConfig, getTemplates } from '../api/sender-api';
import { isApproved } from '../../../lib/templates/send-components';
import type { SenderStatus } from '../sender-status';

export interface SenderSetup {
  /** True until the settings and template fetch ends. */
  loading: boolean;
  phoneNumberId: string | null;
  /** The country of the business's own number: the default for numbers typed without one. */
  defaultRegion: string | null;
  /** The APPROVED templates only. */
  templates: Template[];
}

/** Loads the business's number and its approved templates, reporting each step on the status line. */
export function useSenderSetup(setStatus: (status: SenderStatus | null) => void): SenderSetup {
  // The i18n instance stays the same when the language changes, so a switch does not reload.
  const { i18n } = useTranslation();
  const [setup, setSetup] = useState<SenderSetup>({
    loading: true,
    phoneNumberId: null,
    defaultRegion: null,
    templates: [],
  });

  useEffect(() => {
    let live = true;
    const t = i18n.t.bind(i18n);
    const fail = (text: string) => {
      if (!live) return;
      setStatus({ type: 'error', text: t('sender.fetchError', { detail: text }) });
      setSetup((current) => ({ ...current, loading: false }));
    };
    const load = async () => {
      setStatus({ type: 'loading', text: t('sender.loadingSettings') });
      const config = await getConfig();
      const phoneNumberId = config?.phoneNumberId || null;
      if (!phoneNumberId) return fail(t('sender.noSettings'));
      if (!live) return;
      setStatus({ type: 'loading', text: t('sender.fetchingTemplates') });
      const templates = await getTemplates();
      if (!Array.isArray(templates)) return fail(t('sender.noTemplates'));
      if (!live) return;
      const defaultRegion = config?.defaultRegion ?? null;
      setSetup({ loading: false, phoneNumberId, defaultRegion, templates: templates.filter(isApproved) });
      setStatus(null);
    };
    load().catch((error: unknown) => fail(detailOf(error, messageOf(error, t('sender.fetchFailed')))));
    return () => {
      live = false;
    };
  }, [i18n, setStatus]);

  return setup;
}
