import { describe, expect, test } from 'vitest';
import { findCitations, isChecked } from './lint-source-text.ts';

describe('the source text lint', () => {
  test.each([
    '// the flag bond (issue 22)',
    ' * Issue 11: a review window',
    '# Issues 18 and 19',
    "describe('the intent (issue #5)', () => {",
  ])('refuses an issue number: %s', (line) => {
    expect(findCitations('a.ts', line)).toMatchObject([{ line: 1, what: 'issue number' }]);
  });

  test.each(['// answers N1', '// (review F20)', '// a stranger stalls it (R3-2)', '/* E1 */'])(
    'refuses a finding code: %s',
    (line) => {
      expect(findCitations('a.ts', line)).toMatchObject([{ what: 'finding code' }]);
    },
  );

  test.each([
    "const url = '/api/users/%E0%A4/bets';",
    'const F1_KEY = 1;',
    '// see docs/decisions/026-app-on-the-escrow.md',
    "const x = 'N-1';",
    '// the issues a reader meets',
    '// ES2022 and a sha256 over E2E data',
  ])('lets through: %s', (line) => {
    expect(findCitations('a.ts', line)).toEqual([]);
  });

  test('names every offending line by its number', () => {
    const found = findCitations('b.ts', 'const a = 1;\n// issue 3\nconst b = 2;\n// N10\n');
    expect(found.map((finding) => finding.line)).toEqual([2, 4]);
  });

  test('checks sources and docs, never generated files or the lock file', () => {
    expect(isChecked('apps/server/src/main.ts')).toBe(true);
    expect(isChecked('docs/product.md')).toBe(true);
    expect(isChecked('package-lock.json')).toBe(false);
    expect(isChecked('packages/escrow/src/prediction-escrow.gen.ts')).toBe(false);
    expect(isChecked('apps/server/drizzle/meta/0018_snapshot.json')).toBe(false);
    expect(isChecked('chain/artifacts/x.bin')).toBe(false);
  });
});

test('docs/security.md keeps the review findings it answers, but no issue number', () => {
  expect(findCitations('docs/security.md', '| N1, F6: a recipient that reverts |')).toEqual([]);
  expect(findCitations('docs/security.md', 'built in issue 29')).toMatchObject([{ what: 'issue number' }]);
});
