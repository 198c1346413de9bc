import { ERROR_CODES } from '@pm/core/contract/errors';
import { describe, expect, test } from 'vitest';
import { ALL_MESSAGES } from '#testing/all-messages.ts';

// Every string the app ships, app-level and every feature's locales/, merged as the app sees them.
const en = ALL_MESSAGES.en;
const zh = ALL_MESSAGES.zh;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [nested, text] of flatten(value, path)) entries.set(nested, text);
  }
  return entries;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

// Plural forms (Intl.PluralRules categories): English has `_one` and `_other`, Chinese only `_other`.
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Keys with plural forms folded into one, each holding every form's text. */
function messages(tree: Tree): Map<string, string[]> {
  const folded = new Map<string, string[]>();
  for (const [key, text] of flatten(tree)) {
    const base = key.replace(PLURAL_SUFFIX, '');
    folded.set(base, [...(folded.get(base) ?? []), text]);
  }
  return folded;
}

const english = messages(en);
const chinese = messages(zh);

describe('translations', () => {
  test('Every English key has a Chinese translation', () => {
    expect([...english.keys()].filter((key) => !chinese.has(key))).toEqual([]);
  });

  test('Every Chinese key has an English original', () => {
    expect([...chinese.keys()].filter((key) => !english.has(key))).toEqual([]);
  });

  test('No translation is empty', () => {
    const empty = [...english, ...chinese]
      .filter(([, texts]) => texts.some((text) => text.trim() === ''))
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  test('Both languages use the same placeholders in each message', () => {
    const used = (texts: string[] = []) => [...new Set(texts.flatMap(placeholders))].sort().join();
    const mismatched = [...english].filter(([key, texts]) => used(texts) !== used(chinese.get(key)));
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });

  test('Every API error code has a message in both languages', () => {
    const missing = ERROR_CODES.filter(
      (code) => !english.has(`errors.${code}`) || !chinese.has(`errors.${code}`),
    );
    expect(missing).toEqual([]);
  });

  test('Every plural message has the `other` form in both languages', () => {
    const forms = [...flatten(en).keys(), ...flatten(zh).keys()].filter((key) => PLURAL_SUFFIX.test(key));
    const bases = new Set(forms.map((key) => key.replace(PLURAL_SUFFIX, '')));
    const missing = [...bases].filter(
      (base) => !flatten(en).has(`${base}_other`) || !flatten(zh).has(`${base}_other`),
    );
    expect(missing).toEqual([]);
  });

  test('The language toggle names the other language (docs/product.md §2)', () => {
    expect(english.get('language.toggle')).toEqual(['中文']);
    expect(chinese.get('language.toggle')).toEqual(['English']);
  });
});
