// The template library's list: read (and synced from WhatsApp) on open and on demand, with each
// rejection's reason; kept live by `template_status` events, read again after a `reset`; deletion
// goes through WhatsApp first.
import { useCallback, useEffect, useState } from 'react';
import type { Template } from '../../../lib/api/types';
import { useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { deleteTemplate, getTemplates } from '../api/templates-api';

export interface TemplateLibrary {
  templates: Template[] | null;
  syncing: boolean;
  /** Reads the list again from WhatsApp; rejects with the server's error. */
  sync: () => Promise<void>;
  /** Deletes every language of the template; rejects with the server's error. */
  remove: (name: string) => Promise<void>;
}

export function useTemplateLibrary(): TemplateLibrary {
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [syncing, setSyncing] = useState(false);

  const sync = useCallback(async () => {
    setSyncing(true);
    try {
      setTemplates(await getTemplates());
    } finally {
      setSyncing(false);
    }
  }, []);

  useEffect(() => {
    sync().catch(() => setTemplates((known) => known ?? []));
  }, [sync]);

  useRealtimeEvents((event) => {
    if (event.event === 'reset') {
      sync().catch(() => undefined);
      return;
    }
    if (event.event !== 'template_status') return;
    const { id, status, reason } = event.data;
    if (id === undefined || typeof status !== 'string') return;
    const told = typeof reason === 'string' && reason !== 'NONE' ? reason : null;
    setTemplates((known) => known?.map((template) => (template.id === String(id) ? { ...template, status, reason: told } : template)) ?? known);
  });

  const remove = useCallback(async (name: string) => {
    await deleteTemplate(name);
    setTemplates((known) => known?.filter((template) => template.name !== name) ?? known);
  }, []);

  return { templates, syncing, sync, remove };
}
