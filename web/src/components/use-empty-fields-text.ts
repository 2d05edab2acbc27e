import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TextField } from '../lib/templates/send-components';

/**
 * The message of a template send refused for empty fields, naming them as the form labels them;
 * in bulk it also offers the recipient file's columns.
 */
export function useEmptyFieldsText() {
  const { t, i18n } = useTranslation();
  return useCallback(
    (fields: readonly TextField[], bulk = false) => {
      const names = fields.map((field) => t(field.label, field.labelValues));
      const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(names);
      return t(bulk ? 'sender.emptyVariablesBulk' : 'sender.emptyVariables', { fields: list });
    },
    [t, i18n.language],
  );
}
