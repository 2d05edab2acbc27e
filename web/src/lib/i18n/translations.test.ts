import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ar from '../../../public/locales/ar/translation.json';
import en from '../../../public/locales/en/translation.json';

type Tree = { [key: string]: string | Tree };

/** Keys without plural suffixes: Arabic has more plural forms than English. */
function keys(tree: Tree, prefix = ''): Set<string> {
  const found = new Set<string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix + key.replace(/_(zero|one|two|few|many|other)$/, '');
    if (typeof value === 'string') found.add(path);
    else keys(value, `${path}.`).forEach((nested) => found.add(nested));
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [join(dir, entry.name)] : [],
  );
}

describe('translations', () => {
  it('have the same keys in English and Arabic', () => {
    expect([...keys(ar as Tree)].sort()).toEqual([...keys(en as Tree)].sort());
  });

  it('cover every literal key the code asks for', () => {
    const known = keys(en as Tree);
    const used = sourceFiles(join(__dirname, '../..')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bt\('([A-Za-z_.]+)'/g)].map((match) => match[1]),
    );
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((key) => key && !known.has(key))).toEqual([]);
  });
});
