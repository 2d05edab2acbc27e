import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: focus trap, Escape and backdrop for free. Its
 * owner closes it by unmounting it, which the browser does not count as closing: the focus is
 * handed back to what held it when the dialog opened (the button that opened it), if that is
 * still on the page, rather than left on the page's body.
 */
export function Modal({ title, onClose, children, className }: { title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal?.();
    return () => {
      // While the dialog is open the rest of the page is inert and refuses the focus.
      if (element?.open) element.close?.();
      const focused = document.activeElement;
      const lost = !focused || focused === document.body || Boolean(element?.contains(focused));
      if (lost && opener?.isConnected && !element?.contains(opener)) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className={`modal ${className ?? ''}`}
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}
