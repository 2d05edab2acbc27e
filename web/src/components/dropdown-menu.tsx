import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useDismiss } from './use-dismiss';

export interface MenuItem {
  label: string;
  onSelect: () => void;
}

/** Where each key moves the focus among `count` items from `index`. */
const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowUp: (index, count) => (index <= 0 ? count - 1 : index - 1),
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * A button that opens a menu of actions; closes on choice, outside click or Escape. Opening it
 * puts the focus on the first item; arrows, Home and End move it. Choosing an item or Escape
 * gives the focus back to the button, so a dialog the item opens hands it back there too.
 */
export function DropdownMenu({ label, icon, items, align = 'start' }: { label: string; icon: ReactNode; items: MenuItem[]; align?: 'start' | 'end' }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, root, close);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const closeToButton = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      closeToButton();
      return;
    }
    const move = MOVES[event.key];
    const entries = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    if (!move || entries.length === 0) return;
    event.preventDefault();
    entries[move(entries.indexOf(document.activeElement as HTMLElement), entries.length)]?.focus();
  };

  return (
    <div className="menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        onClick={() => setOpen((value) => !value)}
      >
        {icon}
      </button>
      {open && (
        <div ref={menu} role="menu" tabIndex={-1} className={`menu-items ${align}`} onKeyDown={onKeyDown}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              onClick={() => {
                closeToButton();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
