import { act, render } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToastProvider } from './toast-provider';
import { HIDDEN_BOTTOM, hiddenBottom } from './use-toasts-above';

/** A visual viewport as a phone's browser has one: it shrinks and moves when the keyboard opens. */
class FakeVisualViewport extends EventTarget {
  offsetTop = 0;
  height = 844;
  move(height: number, offsetTop: number, event: 'resize' | 'scroll') {
    this.height = height;
    this.offsetTop = offsetTop;
    this.dispatchEvent(new Event(event));
  }
}

const hidden = () => document.documentElement.style.getPropertyValue(HIDDEN_BOTTOM);

describe('toasts and the on-screen keyboard', () => {
  it('measure what the visual viewport leaves out at the bottom of the layout viewport', () => {
    expect(hiddenBottom(844, { offsetTop: 0, height: 844 })).toBe(0);
    expect(hiddenBottom(844, { offsetTop: 0, height: 508.4 })).toBe(336);
    expect(hiddenBottom(844, { offsetTop: 336, height: 508 })).toBe(0);
    expect(hiddenBottom(844, { offsetTop: 120, height: 508 })).toBe(216);
    expect(hiddenBottom(600, { offsetTop: 0, height: 844 })).toBe(0);
  });

  describe('in the app', () => {
    let viewport: FakeVisualViewport;
    beforeEach(() => {
      viewport = new FakeVisualViewport();
      vi.stubGlobal('visualViewport', viewport);
      vi.spyOn(document.documentElement, 'clientHeight', 'get').mockReturnValue(844);
    });

    it('rise above the keyboard as it opens, follow the page as it scrolls, and settle when it closes', () => {
      const { unmount } = render(<ToastProvider>{null}</ToastProvider>);
      expect(hidden()).toBe('0px');
      act(() => viewport.move(508, 0, 'resize'));
      expect(hidden()).toBe('336px');
      act(() => viewport.move(508, 200, 'scroll'));
      expect(hidden()).toBe('136px');
      act(() => viewport.move(844, 0, 'resize'));
      expect(hidden()).toBe('0px');
      unmount();
      expect(hidden()).toBe('');
      act(() => viewport.move(508, 0, 'resize'));
      expect(hidden()).toBe('');
    });

    it('are placed with that room in the stylesheet, with the composer\'s, whichever is higher', () => {
      const css = readFileSync(join(__dirname, '../../app/styles.css'), 'utf8');
      expect(css).toMatch(/\.toasts \{[^}]*inset: auto 0 calc\(max\(var\(--toast-clearance[^;]*\), var\(--viewport-hidden-bottom, 0px\)\) \+ 12px\);/);
    });
  });

  it('have a page that lets Chrome shrink the layout for the keyboard, so the composer stays above it', () => {
    const html = readFileSync(join(__dirname, '../../../index.html'), 'utf8');
    expect(html).toMatch(/<meta name="viewport" content="[^"]*interactive-widget=resizes-content/);
  });
});
