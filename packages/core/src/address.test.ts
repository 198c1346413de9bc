import { describe, expect, test } from 'vitest';
import { InvalidAddressError, normalizeAddress, shortenAddress } from './address.ts';

const CHECKSUMMED = '0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE';
const LOWER = '0x0567f2323251f0aab15c8dfb1967e4e8a7d42aee';

describe('shortenAddress', () => {
  test('keeps the first 6 and last 4 characters', () => {
    expect(shortenAddress('0x1234567890abcdef1234567890abcdef1234abcd')).toBe('0x1234...abcd');
  });

  test('leaves text too short to shorten alone', () => {
    expect(shortenAddress('0x12')).toBe('0x12');
  });
});

describe('normalizeAddress', () => {
  test('returns the lower-case form of an address in any case', () => {
    expect(normalizeAddress(CHECKSUMMED)).toBe(LOWER);
    expect(normalizeAddress(LOWER.toUpperCase().replace('0X', '0x'))).toBe(LOWER);
  });

  test('throws on anything that is not an address', () => {
    for (const text of ['', '0x', 'hello', `${LOWER}00`, LOWER.slice(2), ` ${LOWER}`]) {
      expect(() => normalizeAddress(text), text).toThrow(InvalidAddressError);
    }
  });
});
