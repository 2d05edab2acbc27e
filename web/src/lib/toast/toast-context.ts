import { createContext, useContext } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

/** Toasts last 3 s, 5 s on the chat page (spec section 8). */
export const TOAST_MS = 3000;
export const CHAT_TOAST_MS = 5000;

export type ShowToast = (text: string, kind?: ToastKind, durationMs?: number) => void;

export const ToastContext = createContext<ShowToast>(() => undefined);

export function useToast(): ShowToast {
  return useContext(ToastContext);
}
