import { useState } from 'react';
import type { TypedQuery } from '../typed-query';

export interface QueryMenu<T> {
  /** The `/query` or `@query` being typed, while the list is open. */
  typed: TypedQuery | null;
  matches: T[];
  active: number;
  open: boolean;
  /** Follows the text and caret after each change. */
  update: (text: string, caret: number) => void;
  move: (step: number) => void;
  point: (index: number) => void;
  close: () => void;
}

/**
 * A composer's list of suggestions (canned replies after `/`, teammates after `@`): open while a
 * word that `queryAt` reads at the caret finds some.
 */
export function useQueryMenu<T>(queryAt: (text: string, caret: number) => TypedQuery | null, find: (query: string) => T[]): QueryMenu<T> {
  const [typed, setTyped] = useState<TypedQuery | null>(null);
  const [active, setActive] = useState(0);
  const matches = typed ? find(typed.query) : [];
  const open = matches.length > 0;
  return {
    typed: open ? typed : null,
    matches,
    active: Math.min(active, Math.max(matches.length - 1, 0)),
    open,
    update: (text, caret) => {
      setTyped(queryAt(text, caret));
      setActive(0);
    },
    move: (step) => setActive((current) => (current + step + matches.length) % matches.length),
    point: setActive,
    close: () => setTyped(null),
  };
}
