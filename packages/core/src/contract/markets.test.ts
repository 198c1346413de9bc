import { describe, expect, test } from 'vitest';
import {
  CreateMarketBodySchema,
  JoinMarketBodySchema,
  ListMarketsQuerySchema,
  MarketIdParamsSchema,
  MarketSchema,
} from './markets.ts';

const TX_HASH = `0x${'ab'.repeat(32)}`;
const ADDRESS = `0x${'cd'.repeat(20)}`;
const createBody = {
  txHash: TX_HASH,
  creatorAddress: ADDRESS,
  description: 'Will BNB close above 600?',
  category: 'crypto',
  duration: 'hourly',
  prediction: 'YES',
  amountWei: '5000000000000000',
  // Decision 026: the creation's deposit, under a fresh escrow id and the close it asks for.
  escrowId: `0x${'ab'.repeat(32)}`,
  closesAt: 1_790_003_600,
};

const firstIssue = (result: {
  error?: { issues: { code: string; path: PropertyKey[]; message: string }[] };
}) => {
  const issue = result.error?.issues[0];
  return issue && { code: issue.code, path: issue.path, message: issue.message };
};

describe('CreateMarketBodySchema', () => {
  test('a creation names its escrow id (32 bytes of hex) and its close (unix seconds, whole)', () => {
    for (const bad of [
      { escrowId: '0x1234' },
      { escrowId: undefined },
      { closesAt: 1.5 },
      { closesAt: 0 },
      { closesAt: 2 ** 40 },
      { closesAt: '1790003600' },
    ]) {
      expect(CreateMarketBodySchema.safeParse({ ...createBody, ...bad }).success).toBe(false);
    }
  });

  test('accepts the body of docs/api.md, optional title and instructions left out', () => {
    expect(CreateMarketBodySchema.parse(createBody)).toEqual(createBody);
  });

  test('a missing or unknown category answers the spec message on the category field', () => {
    const { category: _omitted, ...noCategory } = createBody;
    for (const body of [noCategory, { ...createBody, category: 'weather' }]) {
      expect(firstIssue(CreateMarketBodySchema.safeParse(body))).toMatchObject({
        path: ['category'],
        message: 'Please select a category',
      });
    }
  });

  test('a missing prediction answers the spec message on the prediction field', () => {
    const { prediction: _omitted, ...noPrediction } = createBody;
    expect(firstIssue(CreateMarketBodySchema.safeParse(noPrediction))).toMatchObject({
      path: ['prediction'],
      message: 'Please select your prediction',
    });
  });

  test('unknown fields are refused', () => {
    expect(firstIssue(CreateMarketBodySchema.safeParse({ ...createBody, isAdmin: true }))).toMatchObject({
      code: 'unrecognized_keys',
      path: [],
    });
  });

  test('text limits: description 2000, title 120, instructions 2000 characters', () => {
    const ok = {
      description: 'x'.repeat(2000),
      title: 'x'.repeat(120),
      resolutionInstructions: 'x'.repeat(2000),
    };
    expect(CreateMarketBodySchema.safeParse({ ...createBody, ...ok }).success).toBe(true);
    for (const [field, length] of [
      ['description', 2001],
      ['title', 121],
      ['resolutionInstructions', 2001],
    ] as const) {
      const result = CreateMarketBodySchema.safeParse({ ...createBody, [field]: 'x'.repeat(length) });
      expect(firstIssue(result), field).toMatchObject({ code: 'too_big', path: [field] });
    }
  });
});

test('JoinMarketBodySchema answers the spec message for a missing prediction', () => {
  const result = JoinMarketBodySchema.safeParse({ txHash: TX_HASH, userAddress: ADDRESS, amountWei: '1' });
  expect(firstIssue(result)).toMatchObject({
    path: ['prediction'],
    message: 'Please select your prediction',
  });
});

describe('ListMarketsQuerySchema', () => {
  test('coerces the limit from the query string', () => {
    expect(ListMarketsQuerySchema.parse({ limit: '5', status: 'open', category: 'all' })).toEqual({
      limit: 5,
      status: 'open',
      category: 'all',
    });
    expect(ListMarketsQuerySchema.parse({})).toEqual({});
  });

  test('refuses a limit outside 1..200, a fraction or text, naming the limit', () => {
    for (const limit of ['0', '201', '1.5', 'ten']) {
      expect(firstIssue(ListMarketsQuerySchema.safeParse({ limit })), limit).toMatchObject({
        path: ['limit'],
      });
    }
    expect(ListMarketsQuerySchema.parse({ limit: '200' }).limit).toBe(200);
  });

  test('unknown query fields are refused', () => {
    expect(ListMarketsQuerySchema.safeParse({ sort: 'asc' }).success).toBe(false);
  });
});

test('MarketIdParamsSchema coerces a positive whole id', () => {
  expect(MarketIdParamsSchema.parse({ id: '7' })).toEqual({ id: 7 });
  for (const id of ['0', '-3', '2.5', 'abc'])
    expect(MarketIdParamsSchema.safeParse({ id }).success, id).toBe(false);
});

test('MarketSchema keeps the AI confidence a whole percentage or null', () => {
  const confidence = MarketSchema.shape.aiConfidence;
  expect(confidence.safeParse(null).success).toBe(true);
  expect(confidence.safeParse(100).success).toBe(true);
  for (const value of [101, -1, 50.5]) expect(confidence.safeParse(value).success, String(value)).toBe(false);
});
