// A label's chip is filled with the label's colour; its text is black or white, whichever reads
// better on that colour, so chips read the same in the dark and the light theme.

/** The relative luminance (WCAG 2) of `#RRGGBB`; 0 for anything else. */
export function luminance(color: string): number {
  const hex = /^#([0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return 0;
  const value = parseInt(hex, 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
}

/** Black or white text on `color`: the one with the higher contrast. */
export function textColorOn(color: string): '#000000' | '#ffffff' {
  const l = luminance(color);
  // Contrast with black is (l + 0.05) / 0.05, with white 1.05 / (l + 0.05); equal at l ≈ 0.179.
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/** A label's colour is `#` and six hex digits. */
export function isLabelColor(color: string): boolean {
  return /^#[0-9a-f]{6}$/i.test(color);
}
