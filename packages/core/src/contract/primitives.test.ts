import { describe, expect, test } from 'vitest';
import {
  AddressSchema,
  CategorySchema,
  IdSchema,
  IsoTimeSchema,
  PaymentWeiSchema,
  TxHashSchema,
  UsdPriceSchema,
  WeiSchema,
} from './primitives.ts';

// The contract is zod/mini; these pin what it accepts and the messages the server's
// VALIDATION_FAILED answers carry, so the switch from zod classic changed neither.

describe('WeiSchema', () => {
  test('accepts whole numbers of wei up to 78 digits', () => {
    for (const wei of ['0', '1', '5000000000000000', '9'.repeat(78)]) expect(WeiSchema.parse(wei)).toBe(wei);
  });

  test('refuses signs, decimals, leading zeros and 79 digits with its own message', () => {
    for (const wei of ['-1', '1.5', '01', ' 1', '', '9'.repeat(79)]) {
      const result = WeiSchema.safeParse(wei);
      expect(result.error?.issues[0]?.message, wei).toBe('must be a whole number of wei as a decimal string');
    }
  });

  test('refuses a number: amounts travel as strings', () => {
    expect(WeiSchema.safeParse(1).error?.issues[0]?.code).toBe('invalid_type');
  });
});

describe('AddressSchema and TxHashSchema', () => {
  test('accept any case', () => {
    expect(AddressSchema.parse(`0x${'Ab'.repeat(20)}`)).toBe(`0x${'Ab'.repeat(20)}`);
    expect(TxHashSchema.parse(`0x${'aB'.repeat(32)}`)).toBe(`0x${'aB'.repeat(32)}`);
  });

  test('refuse a wrong length with their own messages', () => {
    expect(AddressSchema.safeParse('0x123').error?.issues[0]?.message).toBe(
      'must be a 0x-prefixed 20-byte address',
    );
    expect(TxHashSchema.safeParse(`0x${'ab'.repeat(31)}`).error?.issues[0]?.message).toBe(
      'must be a 0x-prefixed 32-byte hash',
    );
  });
});

describe('IsoTimeSchema', () => {
  test('accepts UTC and offset times, with or without fractions', () => {
    for (const time of ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.123Z', '2024-01-01T00:00:00+02:00']) {
      expect(IsoTimeSchema.parse(time)).toBe(time);
    }
  });

  test('refuses a time without a zone and a bare date', () => {
    for (const time of ['2024-01-01T00:00:00', '2024-01-01']) {
      expect(IsoTimeSchema.safeParse(time).error?.issues[0]?.code, time).toBe('invalid_format');
    }
  });
});

describe('UsdPriceSchema', () => {
  test('accepts at most 8 decimals', () => {
    expect(UsdPriceSchema.safeParse('600.12345678').success).toBe(true);
    expect(UsdPriceSchema.safeParse('600.123456789').success).toBe(false);
    expect(UsdPriceSchema.safeParse('-1').success).toBe(false);
  });
});

describe('IdSchema', () => {
  test('coerces a path segment to a number', () => {
    expect(IdSchema.parse('42')).toBe(42);
  });

  test('refuses zero, fractions, text and anything past what the database stores', () => {
    // A too-big id must never reach an int4 column, where it answers 500.
    for (const id of ['0', '-1', '1.5', 'abc', '2147483648', '3000000000', String(2 ** 53)]) {
      expect(IdSchema.safeParse(id).success, id).toBe(false);
    }
    expect(IdSchema.parse('2147483647')).toBe(2_147_483_647);
  });
});

test('enum options stay readable for the fields built on them', () => {
  expect(CategorySchema.options).toEqual(['crypto', 'social_media', 'gaming', 'politics', 'sports']);
});

describe('PaymentWeiSchema', () => {
  test('a paid amount is a positive whole number of wei', () => {
    expect(PaymentWeiSchema.safeParse('1').success).toBe(true);
    expect(PaymentWeiSchema.safeParse('5000000000000000').success).toBe(true);
    // A 0-wei "payment" would become a 0-wei refund that stops every refund after it.
    expect(PaymentWeiSchema.safeParse('0').success).toBe(false);
    expect(PaymentWeiSchema.safeParse('00').success).toBe(false);
    expect(PaymentWeiSchema.safeParse('-1').success).toBe(false);
    expect(PaymentWeiSchema.safeParse(`1${'0'.repeat(78)}`).success).toBe(false);
  });
});
