import { describe, expect, test } from 'vitest';
import en from './en.json';
import zh from './zh.json';

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

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((match) => match[1] ?? '')
    .sort()
    .join();

const english = flatten(en);
const chinese = flatten(zh);

describe('oracle translations', () => {
  test('Everything is under the one top-level key "oracle"', () => {
    expect(Object.keys(en)).toEqual(['oracle']);
    expect(Object.keys(zh)).toEqual(['oracle']);
  });

  test('English and Chinese have the same keys, none empty, with the same placeholders', () => {
    expect([...english.keys()].sort()).toEqual([...chinese.keys()].sort());
    expect([...english, ...chinese].filter(([, text]) => text.trim() === '')).toEqual([]);
    const mismatched = [...english].filter(
      ([key, text]) => placeholders(text) !== placeholders(chinese.get(key) ?? ''),
    );
    expect(mismatched).toEqual([]);
  });

  test('The spec texts are there word for word (spec §4, §5, §8)', () => {
    expect(english.get('oracle.bet.connect')).toBe('Please connect your wallet to place a bet');
    expect(english.get('oracle.bet.minimum')).toBe('Minimum bet is 0.01 BNB');
    expect(english.get('oracle.bet.onlyLive')).toBe('You can only bet on live rounds');
    expect(english.get('oracle.bet.success')).toBe(
      '{{position}} bet placed! {{amount}} BNB sent to treasury',
    );
    expect(english.get('oracle.claim.success')).toBe('Successfully claimed {{amount}} BNB!');
    expect(english.get('oracle.waiting.title')).toBe('Waiting for next round');
    expect(english.get('oracle.round.bullWon')).toBe('BULL WON');
    expect(english.get('oracle.round.bearWon')).toBe('BEAR WON');
    expect(english.get('oracle.round.draw')).toBe('DRAW');
    expect(english.get('oracle.operator.genesis')).toBe('Start Genesis Round');
    expect(english.get('oracle.operator.reset')).toBe('Reset Rounds');
  });
});
