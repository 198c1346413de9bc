import { createHash } from 'node:crypto';
import { encodeAbiParameters, type Hex, keccak256, toHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { SIDE_CODE } from './deposit-terms.ts';
import { marketKey } from './market-key.ts';
import {
  analysisHash,
  MARKET_OUTCOME,
  MARKET_VERDICT_DOMAIN,
  marketVerdictHash,
} from './market-settlement.ts';

const key = marketKey(keccak256(toHex('market 7')), 1_748_779_500);
const page = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a market on the escrow', () => {
  test('YES and NO are coded as the deposits code their sides, VOID as a cancelled round', () => {
    expect(MARKET_OUTCOME).toEqual({ YES: 1, NO: 2, VOID: 4 });
    expect(MARKET_OUTCOME.YES).toBe(SIDE_CODE.YES);
    expect(MARKET_OUTCOME.NO).toBe(SIDE_CODE.NO);
  });

  test("the analysis hash is the text's sha256, as sha256sum gives it", () => {
    const text = 'Bitcoin closed above $100,000 — per both sources.';
    expect(analysisHash(text)).toBe(`0x${createHash('sha256').update(text, 'utf8').digest('hex')}`);
  });

  test('its verdict hash is the documented encoding over key, outcome, page hashes and analysis', () => {
    const pages = [page('first page'), page('second page')];
    const verdict = {
      marketKey: key,
      result: 'YES' as const,
      evidenceSha256: pages,
      analysis: 'Yes, it did.',
    };
    const expected = keccak256(
      encodeAbiParameters(
        [
          { type: 'string' },
          { type: 'bytes32' },
          { type: 'uint8' },
          { type: 'bytes32[]' },
          { type: 'bytes32' },
        ],
        [
          MARKET_VERDICT_DOMAIN,
          key,
          1,
          pages.map((hash) => `0x${hash}` as Hex),
          analysisHash('Yes, it did.'),
        ],
      ),
    );
    expect(marketVerdictHash(verdict)).toBe(expected);
    // 0x-prefixed or upper-case page hashes and key read the same.
    expect(
      marketVerdictHash({
        ...verdict,
        marketKey: key.toUpperCase().replace('0X', '0x') as Hex,
        evidenceSha256: pages.map((hash) => `0x${hash.toUpperCase()}`),
      }),
    ).toBe(expected);
    // Every part counts: the result, the pages (and their order), the analysis, the market.
    const others = [
      { ...verdict, result: 'NO' as const },
      { ...verdict, result: 'VOID' as const },
      { ...verdict, evidenceSha256: [...pages].reverse() },
      { ...verdict, evidenceSha256: pages.slice(1) },
      { ...verdict, evidenceSha256: [] },
      { ...verdict, analysis: 'Yes, it did!' },
      { ...verdict, marketKey: marketKey(keccak256(toHex('market 7')), 1_748_779_501) },
    ];
    const hashes = new Set([expected, ...others.map(marketVerdictHash)]);
    expect(hashes.size).toBe(others.length + 1);
  });

  test('refuses a key or page hash that is not 32 bytes, and an unknown result', () => {
    const verdict = { marketKey: key, result: 'NO' as const, evidenceSha256: [], analysis: '' };
    expect(() => marketVerdictHash({ ...verdict, marketKey: '0x1234' })).toThrow(RangeError);
    expect(() => marketVerdictHash({ ...verdict, evidenceSha256: ['abc'] })).toThrow(RangeError);
    expect(() => marketVerdictHash({ ...verdict, result: 'MAYBE' as unknown as 'NO' })).toThrow(RangeError);
  });
});
