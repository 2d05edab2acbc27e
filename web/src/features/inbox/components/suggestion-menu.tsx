import type { ReactNode } from 'react';
import '../suggestion-menu.css';

interface Props<T> {
  id: string;
  /** The list's accessible name. */
  label: string;
  items: T[];
  keyOf: (item: T) => string;
  active: number;
  onPoint: (index: number) => void;
  onChoose: (item: T) => void;
  /** One option's content. */
  children: (item: T) => ReactNode;
}

/** The id of one option of the list, for the textbox's `aria-activedescendant`. */
export function suggestionOptionId(listId: string, index: number): string {
  return `${listId}-${index}`;
}

/**
 * What the word being typed finds (canned replies, teammates), above the composer; the textbox
 * keeps the focus.
 */
export function SuggestionMenu<T>({ id, label, items, keyOf, active, onPoint, onChoose, children }: Props<T>) {
  return (
    <div id={id} className="suggestion-menu" role="listbox" aria-label={label}>
      {items.map((item, index) => (
        <button
          key={keyOf(item)}
          type="button"
          // The textbox keeps the focus and names the active option; the arrows move it.
          tabIndex={-1}
          id={suggestionOptionId(id, index)}
          role="option"
          aria-selected={index === active}
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => onPoint(index)}
          onClick={() => onChoose(item)}
        >
          {children(item)}
        </button>
      ))}
    </div>
  );
}
