// The header media file: checked by its first bytes against the header type's limits when chosen
// (alerts invalidFileType… / …SizeExceedsLimit), and read as a data URL for the preview.
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../lib/toast/toast-context';
import { type FileKind, type HeaderMedia, fileProblem, readDataUrl, readKind } from '../header-file';

export interface ChosenFile {
  file: File;
  kind: FileKind;
  /** For the preview of images and videos. */
  dataUrl: string | null;
}

export function useHeaderFile() {
  const { t } = useTranslation();
  const showToast = useToast();
  const [chosen, setChosen] = useState<ChosenFile | null>(null);

  const choose = useCallback(
    async (media: HeaderMedia, file: File) => {
      setChosen(null);
      try {
        const kind = await readKind(file);
        const problem = fileProblem(media, kind, file.size);
        if (problem) {
          showToast(t(problem), 'error');
          return;
        }
        const dataUrl = media.format === 'DOCUMENT' ? null : await readDataUrl(file);
        setChosen({ file, kind, dataUrl });
      } catch {
        showToast(t('templateForm.failedToReadFile'), 'error');
      }
    },
    [showToast, t],
  );

  const clear = useCallback(() => setChosen(null), []);
  return { chosen, choose, clear };
}
