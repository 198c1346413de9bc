import fc from 'fast-check';
import { keccak256, stringToHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { MAX_ROW_ID } from './constants.ts';
import {
  decodeIntent,
  encodeIntent,
  intentText,
  isSameClaim,
  marketContentHash,
  type PaymentIntent,
  sameIntent,
} from './intent.ts';

const HASH = `0x${'ab'.repeat(32)}` as const;

describe('intentText', () => {
  test('spells each kind of intent as docs/api.md says', () => {
    expect(intentText({ kind: 'create', contentHash: HASH, prediction: 'YES' })).toBe(
      `pm1:create:${HASH}:YES`,
    );
    expect(intentText({ kind: 'bet', marketId: 42, prediction: 'NO' })).toBe('pm1:bet:42:NO');
    expect(intentText({ kind: 'round', epoch: 2_914_632, position: 'bull' })).toBe('pm1:round:2914632:bull');
    expect(intentText({ kind: 'flag', marketId: 42 })).toBe('pm1:flag:42');
  });

  test('writes the content hash in lower case', () => {
    const upper = `0x${'AB'.repeat(32)}` as const;
    expect(intentText({ kind: 'create', contentHash: upper, prediction: 'NO' })).toBe(
      `pm1:create:${HASH}:NO`,
    );
  });

  test('refuses ids and hashes that could not be decoded back', () => {
    expect(() => intentText({ kind: 'bet', marketId: 0, prediction: 'NO' })).toThrow(RangeError);
    expect(() => intentText({ kind: 'bet', marketId: 1.5, prediction: 'NO' })).toThrow(RangeError);
    expect(() => intentText({ kind: 'round', epoch: 2 ** 53, position: 'bear' })).toThrow(RangeError);
    expect(() => intentText({ kind: 'flag', marketId: 0 })).toThrow(RangeError);
    expect(() => intentText({ kind: 'flag', marketId: MAX_ROW_ID + 1 })).toThrow(RangeError);
    expect(() => intentText({ kind: 'create', contentHash: '0x1234', prediction: 'YES' })).toThrow(
      RangeError,
    );
  });
});

describe('encodeIntent and decodeIntent', () => {
  test('the data is the UTF-8 text as hex', () => {
    expect(encodeIntent({ kind: 'bet', marketId: 7, prediction: 'YES' })).toBe(stringToHex('pm1:bet:7:YES'));
  });

  test('every valid intent decodes back to itself', () => {
    const id = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
    const intentArb: fc.Arbitrary<PaymentIntent> = fc.oneof(
      fc.record({
        kind: fc.constant('create' as const),
        contentHash: fc
          .uint8Array({ minLength: 32, maxLength: 32 })
          .map((bytes): `0x${string}` => `0x${Buffer.from(bytes).toString('hex')}`),
        prediction: fc.constantFrom('YES' as const, 'NO' as const),
      }),
      fc.record({
        kind: fc.constant('bet' as const),
        marketId: fc.integer({ min: 1, max: MAX_ROW_ID }),
        prediction: fc.constantFrom('YES' as const, 'NO' as const),
      }),
      fc.record({
        kind: fc.constant('round' as const),
        epoch: id,
        position: fc.constantFrom('bull' as const, 'bear' as const),
      }),
      fc.record({ kind: fc.constant('flag' as const), marketId: fc.integer({ min: 1, max: MAX_ROW_ID }) }),
    );
    fc.assert(
      fc.property(intentArb, (intent) => {
        expect(decodeIntent(encodeIntent(intent))).toEqual(intent);
      }),
    );
  });

  test('a market id larger than the database stores names no market', () => {
    // pm1:bet:3000000000 must never reach an int4 query, where it would stop reconciliation for good.
    expect(decodeIntent(stringToHex('pm1:bet:3000000000:YES'))).toBeNull();
    expect(decodeIntent(stringToHex(`pm1:bet:${MAX_ROW_ID + 1}:YES`))).toBeNull();
    expect(decodeIntent(stringToHex(`pm1:bet:${MAX_ROW_ID}:YES`))).toEqual({
      kind: 'bet',
      marketId: MAX_ROW_ID,
      prediction: 'YES',
    });
    expect(() => intentText({ kind: 'bet', marketId: MAX_ROW_ID + 1, prediction: 'NO' })).toThrow(RangeError);
  });

  test('upper-case hex data decodes too', () => {
    expect(decodeIntent(stringToHex('pm1:round:5:bear').toUpperCase().replace('0X', '0x'))).toEqual({
      kind: 'round',
      epoch: 5,
      position: 'bear',
    });
  });

  test('anything not exactly in the format decodes to null', () => {
    const texts = [
      '',
      'pm1:bet:7:yes',
      'pm1:bet:07:YES',
      'pm1:bet:0:YES',
      'pm1:bet:-1:YES',
      'pm1:bet:1.0:YES',
      'pm1:bet:9007199254740992:YES',
      'pm1:bet:7:YES ',
      ' pm1:bet:7:YES',
      'pm1:bet:7:YES\n',
      'pm2:bet:7:YES',
      'pm1:bet:7',
      'pm1:round:5:BULL',
      'pm1:round:5:up',
      'pm1:bet:7:bull',
      'pm1:round:5:YES',
      `pm1:create:${HASH.toUpperCase().replace('0X', '0x')}:YES`,
      `pm1:create:${HASH.slice(0, -2)}:YES`,
      `pm1:create:${HASH}00:YES`,
      'pm1:create:7:YES',
    ];
    for (const text of texts) expect(decodeIntent(stringToHex(text)), text).toBeNull();
  });

  test('data that is not well-formed hex decodes to null', () => {
    expect(decodeIntent(undefined)).toBeNull();
    expect(decodeIntent('0x')).toBeNull();
    expect(decodeIntent('pm1:bet:7:YES')).toBeNull();
    expect(decodeIntent(`${stringToHex('pm1:bet:7:YES')}0`)).toBeNull();
    expect(decodeIntent(stringToHex('pm1:bet:7:YES').slice(2))).toBeNull();
    expect(decodeIntent('0xzz')).toBeNull();
  });

  test('bytes that only decode to an intent leniently are refused', () => {
    // A UTF-8 byte-order mark is silently dropped by TextDecoder.
    expect(decodeIntent(`0xefbbbf${stringToHex('pm1:bet:7:YES').slice(2)}`)).toBeNull();
    expect(decodeIntent(`${stringToHex('pm1:bet:7:YES')}ff`)).toBeNull();
  });
});

describe('the flag bond intent', () => {
  test('names one market, in one spelling only', () => {
    expect(decodeIntent(stringToHex('pm1:flag:7'))).toEqual({ kind: 'flag', marketId: 7 });
    for (const text of [
      'pm1:flag:07',
      'pm1:flag:0',
      'pm1:flag:7:YES',
      'pm1:flag:',
      `pm1:flag:${MAX_ROW_ID + 1}`,
    ]) {
      expect(decodeIntent(stringToHex(text))).toBeNull();
    }
  });

  test('a bond is never the same intent as a bet on the same market', () => {
    expect(sameIntent({ kind: 'flag', marketId: 1 }, { kind: 'flag', marketId: 1 })).toBe(true);
    expect(sameIntent({ kind: 'flag', marketId: 1 }, { kind: 'flag', marketId: 2 })).toBe(false);
    expect(sameIntent({ kind: 'flag', marketId: 1 }, { kind: 'bet', marketId: 1, prediction: 'YES' })).toBe(
      false,
    );
    expect(sameIntent({ kind: 'bet', marketId: 1, prediction: 'YES' }, { kind: 'flag', marketId: 1 })).toBe(
      false,
    );
  });
});

describe('sameIntent', () => {
  test('intents with the same fields are the same, hash case aside', () => {
    const upper = `0x${'AB'.repeat(32)}` as const;
    expect(
      sameIntent(
        { kind: 'create', contentHash: HASH, prediction: 'YES' },
        { kind: 'create', contentHash: upper, prediction: 'YES' },
      ),
    ).toBe(true);
    expect(
      sameIntent(
        { kind: 'bet', marketId: 1, prediction: 'NO' },
        { kind: 'bet', marketId: 1, prediction: 'NO' },
      ),
    ).toBe(true);
  });

  test('any differing field or kind makes them different', () => {
    expect(
      sameIntent(
        { kind: 'bet', marketId: 1, prediction: 'NO' },
        { kind: 'bet', marketId: 2, prediction: 'NO' },
      ),
    ).toBe(false);
    expect(
      sameIntent(
        { kind: 'bet', marketId: 1, prediction: 'NO' },
        { kind: 'bet', marketId: 1, prediction: 'YES' },
      ),
    ).toBe(false);
    expect(
      sameIntent(
        { kind: 'round', epoch: 1, position: 'bull' },
        { kind: 'round', epoch: 1, position: 'bear' },
      ),
    ).toBe(false);
    expect(
      sameIntent(
        { kind: 'round', epoch: 1, position: 'bull' },
        { kind: 'bet', marketId: 1, prediction: 'YES' },
      ),
    ).toBe(false);
    expect(
      sameIntent(
        { kind: 'create', contentHash: HASH, prediction: 'YES' },
        { kind: 'create', contentHash: `0x${'cd'.repeat(32)}`, prediction: 'YES' },
      ),
    ).toBe(false);
  });
});

describe('marketContentHash', () => {
  test('hashes the fields as one JSON array, missing ones as empty', () => {
    const input = {
      category: 'crypto',
      duration: 'hourly',
      title: null,
      description: 'Will BNB close above $700?',
      resolutionInstructions: undefined,
    };
    expect(marketContentHash(input)).toBe(
      keccak256(stringToHex('["crypto","hourly","","Will BNB close above $700?",""]')),
    );
  });

  test('matches a known keccak256 of UTF-8 text', () => {
    // keccak256("") is the well-known c5d2…a470; five empty fields hash their JSON array.
    expect(keccak256(stringToHex(''))).toBe(
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(marketContentHash({ category: '', duration: '', description: '' })).toBe(
      keccak256(stringToHex('["","","","",""]')),
    );
  });

  test('strings are hashed exactly as given: whitespace and non-ASCII count', () => {
    const base = { category: 'sports', duration: 'daily', title: 'Final', description: '冠军是谁?' };
    const hash = marketContentHash(base);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(marketContentHash({ ...base, description: '冠军是谁? ' })).not.toBe(hash);
    expect(marketContentHash({ ...base, title: '' })).not.toBe(hash);
    expect(marketContentHash({ ...base, title: null })).toBe(marketContentHash({ ...base, title: '' }));
    expect(marketContentHash(base)).toBe(keccak256(stringToHex('["sports","daily","Final","冠军是谁?",""]')));
  });

  test('bodies that split the same text differently hash differently', () => {
    const fields = { category: 'crypto', duration: 'daily' };
    const honest = marketContentHash({ ...fields, description: 'Q\n\nR' });
    const forged = marketContentHash({
      ...fields,
      title: '\nQ',
      description: '',
      resolutionInstructions: 'R\n',
    });
    expect(forged).not.toBe(honest);
  });

  test('quotes, backslashes and control characters cannot forge a field boundary', () => {
    const fields = { category: 'crypto', duration: 'daily' };
    const pairs: Array<[{ title: string; description: string }, { title: string; description: string }]> = [
      [
        { title: 'a","b', description: 'c' },
        { title: 'a', description: 'b","c' },
      ],
      [
        { title: 'a\\', description: '"b' },
        { title: 'a\\"', description: 'b' },
      ],
      [
        { title: 'a\u0000', description: 'b' },
        { title: 'a', description: '\u0000b' },
      ],
    ];
    for (const [left, right] of pairs) {
      expect(marketContentHash({ ...fields, ...left })).not.toBe(marketContentHash({ ...fields, ...right }));
    }
  });
});

describe('isSameClaim', () => {
  const recorded = {
    fromAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    amountWei: 30_000_000_000_000_000n,
    intentText: 'pm1:round:7:bear',
  };
  const claim = {
    from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amountWei: 30_000_000_000_000_000n,
    intent: { kind: 'round', epoch: 7, position: 'bear' } as const,
  };

  test('The same payer, amount and intent is the same request, whatever the address case', () => {
    expect(isSameClaim(recorded, claim)).toBe(true);
  });

  test('Another payer, another amount or another intent is another request', () => {
    expect(isSameClaim(recorded, { ...claim, from: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' })).toBe(
      false,
    );
    expect(isSameClaim(recorded, { ...claim, amountWei: claim.amountWei + 1n })).toBe(false);
    expect(isSameClaim(recorded, { ...claim, intent: { kind: 'round', epoch: 7, position: 'bull' } })).toBe(
      false,
    );
    expect(isSameClaim(recorded, { ...claim, intent: { kind: 'round', epoch: 8, position: 'bear' } })).toBe(
      false,
    );
  });
});
