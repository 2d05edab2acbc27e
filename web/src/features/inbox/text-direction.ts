const ARABIC_START = /^\s*[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;

/** The composer is right-to-left when the text starts with an Arabic character. */
export function textDirection(text: string): 'rtl' | 'ltr' {
  return ARABIC_START.test(text) ? 'rtl' : 'ltr';
}
