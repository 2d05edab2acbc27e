import { useEffect, useState } from 'react';

/** Below this width only the list or the pane shows (spec section 9). */
export const SMALL_SCREEN_PX = 768;
const RESIZE_DEBOUNCE_MS = 200;

export function useSmallScreen(): boolean {
  const [small, setSmall] = useState(() => window.innerWidth < SMALL_SCREEN_PX);
  useEffect(() => {
    let timer = 0;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setSmall(window.innerWidth < SMALL_SCREEN_PX), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return small;
}
