import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ToastContext, TOAST_MS, type ShowToast } from './toast-context';
import { withToast, type Toast } from './toast-list';
import { useToastsInView } from './use-toasts-above';

/**
 * Shows toasts newest first. The stack is a manual popover: the browser's top layer, where an open
 * <dialog> also lives, so re-showing it after each change, and after a dialog opens, puts it above
 * any dialog and its backdrop.
 * It stays above the on-screen keyboard (use-toasts-above.ts).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const stack = useRef<HTMLDivElement>(null);
  useToastsInView();

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);
  const show = useCallback<ShowToast>(
    (text, kind = 'info', durationMs = TOAST_MS, action) => {
      const id = nextId.current++;
      setToasts((list) => withToast(list, { id, text, kind, action }));
      window.setTimeout(() => dismiss(id), durationMs);
    },
    [dismiss],
  );

  const showing = useRef(false);
  useEffect(() => {
    const element = stack.current;
    if (!element) return;
    element.hidePopover();
    showing.current = toasts.length > 0;
    if (showing.current) element.showPopover();
  }, [toasts]);

  // A dialog opened while toasts show goes on top of them: the stack is shown again, above it.
  useEffect(() => {
    const element = stack.current;
    if (!element) return;
    const observer = new MutationObserver((changes) => {
      const opened = changes.some(({ target }) => target instanceof HTMLDialogElement && target.open);
      if (!opened || !showing.current) return;
      element.hidePopover();
      element.showPopover();
    });
    observer.observe(document.body, { subtree: true, attributeFilter: ['open'] });
    return () => observer.disconnect();
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div ref={stack} className="toasts" popover="manual" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} role={toast.kind === 'error' ? 'alert' : 'status'} className={`toast toast-${toast.kind}`}>
            {toast.text}
            {toast.action && (
              <button
                type="button"
                className="toast-action"
                onClick={() => {
                  dismiss(toast.id);
                  toast.action?.run();
                }}
              >
                {toast.action.label}
              </button>
            )}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
