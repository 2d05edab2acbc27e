import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useDismiss } from './use-dismiss';

export interface MenuItem {
  label: string;
  onSelect: () => void;
}

/** A button that opens a menu of actions; closes on choice, outside click or Escape. */
export function DropdownMenu({ label, icon, items, align = 'start' }: { label: string; icon: ReactNode; items: MenuItem[]; align?: 'start' | 'end' }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, root, close);

  return (
    <div className="menu" ref={root}>
      <button
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
        <div role="menu" className={`menu-items ${align}`}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
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
