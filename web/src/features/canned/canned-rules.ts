// The canned reply form's rules, the same as the server's (docs/API.md, "Canned replies"), so a
// mistake shows beside its field before the form is sent.
import type { CannedReplyFields } from '../../lib/api/canned-replies';

export const SHORTCUT_MAX = 32;
export const TEXT_MAX = 4096;

/** Translation keys of the broken rules, by field. */
export interface CannedProblems {
  shortcut?: string;
  text?: string;
}

/** Characters as the server counts them (code points, not UTF-16 units). */
function length(text: string): number {
  return [...text].length;
}

export function checkCanned({ shortcut, text }: CannedReplyFields): CannedProblems {
  const problems: CannedProblems = {};
  const trimmed = shortcut.trim();
  if (!trimmed) problems.shortcut = 'canned.errors.shortcutRequired';
  // The composer's `/` comes before the shortcut: `/hi` would have to be typed `//hi`.
  else if (trimmed.startsWith('/')) problems.shortcut = 'canned.errors.shortcutSlash';
  else if (/\s/.test(trimmed)) problems.shortcut = 'canned.errors.shortcutSpaces';
  else if (length(trimmed) > SHORTCUT_MAX) problems.shortcut = 'canned.errors.shortcutLong';
  if (!text.trim()) problems.text = 'canned.errors.textRequired';
  else if (length(text) > TEXT_MAX) problems.text = 'canned.errors.textLong';
  return problems;
}
