import { createContext, useContext } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

/** Toasts last 3 s, 5 s on the chat page (spec section 8). */
export const TOAST_MS = 3000;
export const CHAT_TOAST_MS = 5000;

/** A toast with an action stays longer, so there is time to reach its button. */
export const ACTION_TOAST_MS = 10000;

/** A button on a toast (the toast is dismissed when it is used). */
export interface ToastAction {
  label: string;
  run: () => void;
}

export type ShowToast = (text: string, kind?: ToastKind, durationMs?: number, action?: ToastAction) => void;

export const ToastContext = createContext<ShowToast>(() => undefined);

export function useToast(): ShowToast {
  return useContext(ToastContext);
}
