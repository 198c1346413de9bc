import { describe, expect, test } from 'vitest';
import { translate } from './translate.ts';

const en = {
  wallet: { connect: 'Connect Wallet', copied: 'Copied {{address}}', spaced: '{{ a }} and {{b}}' },
  bets_one: '{{count}} bet',
  bets_other: '{{count}} bets',
  only: 'English only',
};
const zh = { wallet: { connect: '连接钱包' }, bets_other: '{{count}} 个预测' };

describe('translate', () => {
  test('A nested key finds its text', () => {
    expect(translate('en', en, en, 'wallet.connect')).toBe('Connect Wallet');
    expect(translate('zh', zh, en, 'wallet.connect')).toBe('连接钱包');
  });

  test('Placeholders are filled from the values, with or without spaces inside the braces', () => {
    expect(translate('en', en, en, 'wallet.copied', { address: '0xabc' })).toBe('Copied 0xabc');
    expect(translate('en', en, en, 'wallet.spaced', { a: 1, b: 'two' })).toBe('1 and two');
  });

  test('A placeholder without a value stays visible rather than vanishing', () => {
    expect(translate('en', en, en, 'wallet.copied', {})).toBe('Copied {{address}}');
  });

  test('count picks the plural form of the language', () => {
    expect(translate('en', en, en, 'bets', { count: 1 })).toBe('1 bet');
    expect(translate('en', en, en, 'bets', { count: 0 })).toBe('0 bets');
    expect(translate('en', en, en, 'bets', { count: 2 })).toBe('2 bets');
    // Chinese has one form: `other`.
    expect(translate('zh', zh, en, 'bets', { count: 1 })).toBe('1 个预测');
  });

  test('A key missing in Chinese falls back to English, and a missing key shows itself', () => {
    expect(translate('zh', zh, en, 'only')).toBe('English only');
    expect(translate('en', en, en, 'no.such.key')).toBe('no.such.key');
    expect(translate('en', en, en, 'wallet')).toBe('wallet');
  });
});
