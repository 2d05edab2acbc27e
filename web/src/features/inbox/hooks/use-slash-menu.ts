import { useState } from 'react';
import type { CannedReply } from '../../../lib/api/canned-replies';
import { matchCanned, slashQueryAt, type SlashQuery } from '../canned';

export interface SlashMenu {
  /** The `/query` being typed, while the list is open. */
  slash: SlashQuery | null;
  matches: CannedReply[];
  active: number;
  open: boolean;
  /** Follows the text and caret after each change. */
  update: (text: string, caret: number) => void;
  move: (step: number) => void;
  point: (index: number) => void;
  close: () => void;
}

/** The composer's list of canned replies: open while a `/query` that finds some is typed. */
export function useSlashMenu(replies: CannedReply[]): SlashMenu {
  const [slash, setSlash] = useState<SlashQuery | null>(null);
  const [active, setActive] = useState(0);
  const matches = slash ? matchCanned(replies, slash.query) : [];
  const open = matches.length > 0;
  return {
    slash: open ? slash : null,
    matches,
    active: Math.min(active, Math.max(matches.length - 1, 0)),
    open,
    update: (text, caret) => {
      setSlash(slashQueryAt(text, caret));
      setActive(0);
    },
    move: (step) => setActive((current) => (current + step + matches.length) % matches.length),
    point: setActive,
    close: () => setSlash(null),
  };
}
