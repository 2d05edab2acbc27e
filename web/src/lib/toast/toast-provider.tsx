import { useCallback, useRef, useState, type ReactNode } from 'react';
import { ToastContext, TOAST_MS, type ShowToast, type ToastKind } from './toast-context';

interface Toast {
  id: number;
  text: string;
  kind: ToastKind;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const show = useCallback<ShowToast>((text, kind = 'info', durationMs = TOAST_MS) => {
    const id = nextId.current++;
    setToasts((list) => [...list, { id, text, kind }]);
    window.setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), durationMs);
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} role={toast.kind === 'error' ? 'alert' : 'status'} className={`toast toast-${toast.kind}`}>
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
