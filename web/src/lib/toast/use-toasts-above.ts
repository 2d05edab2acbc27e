import { useEffect, type RefObject } from 'react';

/** The room toasts leave under them, in px from the bottom of the window (app/styles.css). */
export const TOAST_CLEARANCE = '--toast-clearance';

/**
 * While `element` (the composer) is on screen the toasts show just above it, so they never cover
 * what is typed; without one they sit at the bottom of the window.
 */
export function useToastsAbove(element: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const node = element.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const place = () => root.style.setProperty(TOAST_CLEARANCE, `${Math.max(0, Math.round(window.innerHeight - node.getBoundingClientRect().top))}px`);
    const observer = new ResizeObserver(place);
    observer.observe(node);
    window.addEventListener('resize', place);
    place();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
      root.style.removeProperty(TOAST_CLEARANCE);
    };
  }, [element]);
}
