import { describe, expect, it } from 'vitest';
import type { EvidenceQuestion } from './evidence-types.ts';
import { creatorUrls, MAX_QUERY_CHARS, normaliseUrl, searchQueries } from './question-sources.ts';

function question(overrides: Partial<EvidenceQuestion> = {}): EvidenceQuestion {
  return {
    title: 'Will Bitcoin close above $100,000 on 31 December 2026?',
    description:
      'Resolves YES if the daily close of BTC/USDT on Binance is above 100,000. See https://www.binance.com/en/trade/BTC_USDT.',
    resolutionInstructions:
      'Use the Binance daily candle (https://www.binance.com/en/trade/BTC_USDT?utm_source=x), or CoinGecko: https://www.coingecko.com/en/coins/bitcoin',
    deadline: new Date('2026-12-31T23:59:59Z'),
    now: new Date('2027-01-01T00:10:00Z'),
    ...overrides,
  };
}

describe('creatorUrls', () => {
  it('finds the http(s) URLs in the description and instructions, in order, trimmed and deduplicated', () => {
    expect(creatorUrls(question())).toEqual([
      'https://www.binance.com/en/trade/BTC_USDT',
      'https://www.coingecko.com/en/coins/bitcoin',
    ]);
  });

  it('ignores other schemes', () => {
    expect(
      creatorUrls(
        question({ description: 'ftp://x.example/a file:///etc/passwd', resolutionInstructions: null }),
      ),
    ).toEqual([]);
  });
});

describe('normaliseUrl', () => {
  it('treats case of the host, default ports, fragments, trailing slashes and tracking parameters as the same page', () => {
    const key = normaliseUrl('https://example.com/a?b=1&a=2');
    for (const same of [
      'https://EXAMPLE.com:443/a/?a=2&b=1',
      'https://example.com/a?a=2&b=1#top',
      'https://example.com/a?utm_source=x&a=2&b=1',
    ]) {
      expect(normaliseUrl(same)).toBe(key);
    }
    expect(normaliseUrl('http://example.com/a?a=2&b=1')).not.toBe(key);
    expect(normaliseUrl('not a url')).toBeNull();
  });
});

describe('searchQueries', () => {
  it('asks the title, the title with key terms, and the instructions, without URLs', () => {
    const queries = searchQueries(question());
    expect(queries[0]).toBe('Will Bitcoin close above $100,000 on 31 December 2026?');
    expect(queries[1]).toMatch(/^Will Bitcoin close above \$100,000 on 31 December 2026\? .*binance/);
    expect(queries).toHaveLength(3);
    for (const query of queries) {
      expect(query).not.toMatch(/https?:/);
      expect(query.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    }
  });

  it('bounds long text and drops duplicates', () => {
    const long = 'word '.repeat(200);
    const queries = searchQueries(question({ title: long, description: '', resolutionInstructions: long }));
    expect(queries).toHaveLength(1);
    expect(queries[0]?.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
  });
});
