import { useEffect, type RefObject } from 'react';

/** The room toasts leave under them for the composer, in px from the bottom of the window (app/styles.css). */
export const TOAST_CLEARANCE = '--toast-clearance';
/** The room toasts leave under them for what hides the window's bottom: the on-screen keyboard, a zoom. */
export const HIDDEN_BOTTOM = '--viewport-hidden-bottom';

/** What the visual viewport shows of the layout viewport (`window.visualViewport`'s fields). */
export interface VisibleArea {
  offsetTop: number;
  height: number;
}

/**
 * How much of the layout viewport's bottom is out of view, in px. An on-screen keyboard that
 * overlays the page (iOS Safari, Chrome without `interactive-widget=resizes-content`) and a zoom
 * shrink the visual viewport, not the layout one that fixed elements are placed in.
 */
export function hiddenBottom(layoutHeight: number, visible: VisibleArea): number {
  return Math.max(0, Math.round(layoutHeight - visible.offsetTop - visible.height));
}

/** The layout viewport's height: what `bottom` of a fixed element counts from. */
const layoutHeight = () => document.documentElement.clientHeight;

/**
 * While `element` (the composer) is on screen the toasts show just above it, so they never cover
 * what is typed; without one they sit at the bottom of the window.
 */
export function useToastsAbove(element: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const node = element.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const place = () => root.style.setProperty(TOAST_CLEARANCE, `${Math.max(0, Math.round(layoutHeight() - node.getBoundingClientRect().top))}px`);
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

/**
 * Keeps toasts in view: they rise above whatever the visual viewport leaves out at the bottom
 * (the keyboard), following it as it resizes and scrolls. The app shows toasts at the higher of
 * this and the composer's clearance.
 */
export function useToastsInView(): void {
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const root = document.documentElement;
    const place = () => root.style.setProperty(HIDDEN_BOTTOM, `${hiddenBottom(layoutHeight(), viewport)}px`);
    viewport.addEventListener('resize', place);
    viewport.addEventListener('scroll', place);
    place();
    return () => {
      viewport.removeEventListener('resize', place);
      viewport.removeEventListener('scroll', place);
      root.style.removeProperty(HIDDEN_BOTTOM);
    };
  }, []);
}
