import { applyTheme } from './preferences';

describe('the theme', () => {
  it("colours the browser's bar as the app's header in either theme", () => {
    const bar = document.createElement('meta');
    bar.name = 'theme-color';
    document.head.append(bar);
    try {
      applyTheme('light');
      expect(document.documentElement.dataset.theme).toBe('light');
      expect(bar.content).toBe('#ffffff');
      applyTheme('dark');
      expect(bar.content).toBe('#161d24');
    } finally {
      bar.remove();
    }
  });
});
