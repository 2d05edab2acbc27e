// Renders icons/parley.svg to the PNG icons the web manifest and iOS use (committed in
// public/icons/). Run after changing the drawing: `node icons/render-icons.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';

const svg = readFileSync(new URL('./parley.svg', import.meta.url), 'utf8');
// The maskable icon fills the whole square (the platform cuts its own shape out of it).
const fullBleed = svg.replace('rx="112"', 'rx="0"');
const out = (name) => new URL(`../public/icons/${name}`, import.meta.url);

const icons = [
  { name: 'icon-192.png', size: 192, source: svg },
  { name: 'icon-512.png', size: 512, source: svg },
  { name: 'icon-maskable-512.png', size: 512, source: fullBleed },
  { name: 'apple-touch-icon.png', size: 180, source: fullBleed },
];
for (const { name, size, source } of icons) {
  const png = new Resvg(source, { fitTo: { mode: 'width', value: size } }).render().asPng();
  writeFileSync(out(name), png);
  console.log(`${name}: ${size}x${size}, ${png.length} bytes`);
}
