// Layout checks shared by the browser tests: how a text box's placeholder fits, read from
// Chromium's own layout of it (the placeholder is a box inside the input's or textarea's shadow
// tree, which pages cannot reach but DevTools can), and the contrast of two colours.
import assert from 'node:assert/strict';

/** The first node under `node` (shadow trees included) that passes `test`. */
function find(node, test) {
  if (test(node)) return node;
  for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) {
    const found = find(child, test);
    if (found) return found;
  }
  return null;
}

const MARK = 'data-placeholder-measured';

/**
 * The placeholder of `box` (a locator of an input or textarea) as laid out: its text, its box
 * and the element's (client coordinates), its number of lines, and its scrolling width against
 * its visible width (a placeholder wider than its box is clipped, not ended in "…").
 */
export async function placeholderLayout(page, box) {
  await box.evaluate((element, mark) => element.setAttribute(mark, ''), MARK);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const element = find(root, (node) => (node.attributes ?? []).includes(MARK));
    assert.ok(element, 'the text box is in the page');
    const pseudo = find(element, (node) => node.nodeName === 'DIV' && (node.attributes ?? []).join(' ').includes('placeholder'));
    assert.ok(pseudo, 'the text box has a placeholder');
    const { object } = await cdp.send('DOM.resolveNode', { nodeId: pseudo.nodeId });
    const { result } = await cdp.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      returnByValue: true,
      functionDeclaration: `function () {
        const host = this.getRootNode().host;
        const range = document.createRange();
        range.selectNodeContents(this);
        return {
          text: host.placeholder,
          rect: this.getBoundingClientRect().toJSON(),
          box: host.getBoundingClientRect().toJSON(),
          lines: new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size,
          scrollWidth: this.scrollWidth,
          clientWidth: this.clientWidth,
        };
      }`,
    });
    return result.value;
  } finally {
    await cdp.detach();
    await box.evaluate((element, mark) => element.removeAttribute(mark), MARK);
  }
}

/** Fails unless `box`'s placeholder shows whole, on one line, inside the box; `where` names the case. */
export async function assertPlaceholderFits(page, box, where) {
  const layout = await placeholderLayout(page, box);
  const said = `"${layout.text}" (${where}): ${JSON.stringify(layout)}`;
  assert.ok(layout.text, `the box has a placeholder (${where})`);
  assert.ok(layout.scrollWidth <= layout.clientWidth, `the placeholder is not cut at its end ${said}`);
  assert.equal(layout.lines, 1, `the placeholder keeps to one line ${said}`);
  const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;
  assert.ok(inside(layout.rect, layout.box), `the placeholder lies inside its box ${said}`);
}

/** The WCAG contrast ratio of two `rgb(…)` colours (as `getComputedStyle` gives them). */
export function contrast(first, second) {
  const luminance = (colour) => {
    const [r, g, b] = colour.match(/[\d.]+/g).slice(0, 3).map((value) => {
      const c = Number(value) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}
