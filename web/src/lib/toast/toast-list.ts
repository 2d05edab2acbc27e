import type { ToastAction, ToastKind } from './toast-context';

export interface Toast {
  id: number;
  text: string;
  kind: ToastKind;
  action?: ToastAction;
}

/** At most this many toasts show at once; an older one makes way for a newer one. */
export const MAX_TOASTS = 3;

/**
 * The list with `toast` on top (the list runs newest first). A toast with the same text and kind
 * as one showing replaces it rather than showing twice.
 */
export function withToast(list: Toast[], toast: Toast): Toast[] {
  const others = list.filter((shown) => shown.text !== toast.text || shown.kind !== toast.kind);
  return [toast, ...others].slice(0, MAX_TOASTS);
}
