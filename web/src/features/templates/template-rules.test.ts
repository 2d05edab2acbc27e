// The shared cases of testdata/template-rules.json, also run by the server's tests
// (server/tests/api/template_rules.rs): the form must refuse exactly what the server refuses, with
// the same rule and the same English sentence (rendered from the translation file).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18n from 'i18next';
import en from '../../../public/locales/en/translation.json';
import { checkTemplate, variables, type HeaderFileInfo } from './template-rules';

interface Case {
  description: string;
  template: unknown;
  file: HeaderFileInfo | null;
  expect: { rule: string; message: string } | null;
}

const shared = JSON.parse(readFileSync(join(__dirname, '../../../../testdata/template-rules.json'), 'utf8')) as { about: string[]; cases: Case[] };

const english = i18n.createInstance();
void english.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false }, initAsync: false });

function result(testCase: Case) {
  const failure = checkTemplate(testCase.template, testCase.file);
  return failure && { rule: failure.rule, message: english.t(failure.key, failure.values ?? {}) };
}

describe('template rules (shared with the server)', () => {
  it('reads every case of the shared file', () => {
    expect(shared.about.length).toBeGreaterThan(0);
    expect(shared.cases.length).toBeGreaterThanOrEqual(81);
    expect(shared.cases.filter((c) => c.expect === null).length).toBeGreaterThanOrEqual(5);
  });

  it.each(shared.cases.map((c) => [c.description, c] as const))('%s', (_description, testCase) => {
    expect(result(testCase)).toEqual(testCase.expect);
  });

  it('finds variables as the server does', () => {
    expect(variables('Hi {{1}}, {{ name }} and {{}}')).toEqual(['1', 'name', '']);
    expect(variables('{{not a var}} {{2}}')).toEqual(['2']);
    expect(variables('no {{ end')).toEqual([]);
  });
});
