import { marketContentHash } from '@pm/core/intent';
import { priceMarketContentHash } from '@pm/core/price-market';
import { describe, expect, test } from 'vitest';
import { marketIntent } from './market-intent.ts';

describe('marketIntent', () => {
  test('a custom market commits to the hash of its text, as the create dialog does', () => {
    const terms = { category: 'crypto', duration: 'hourly', description: 'Will it rain?' } as const;
    expect(marketIntent(terms, 'YES')).toEqual({
      kind: 'create',
      contentHash: marketContentHash(terms),
      prediction: 'YES',
    });
    expect(marketIntent({ ...terms, betType: 'custom_bet' }, 'NO')).toMatchObject({
      contentHash: marketContentHash(terms),
    });
  });

  test('a Price Oracle market commits to the hash of its terms', () => {
    const terms = {
      betType: 'price_prediction',
      targetSymbol: 'BTC',
      comparisonType: 'above',
      targetPrice: '100000',
      duration: 'daily',
    } as const;
    expect(marketIntent(terms, 'NO')).toEqual({
      kind: 'create',
      contentHash: priceMarketContentHash(terms),
      prediction: 'NO',
    });
  });
});
