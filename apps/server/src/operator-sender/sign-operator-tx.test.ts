import { describe, expect, test } from 'vitest';
import { lowestFreeNonce } from './sign-operator-tx.ts';

describe('lowestFreeNonce', () => {
  test('is the pending count when no row holds it or anything above', () => {
    expect(lowestFreeNonce(0n, [])).toBe(0n);
    expect(lowestFreeNonce(7n, [9n, 12n])).toBe(7n);
  });

  test('is one past the highest stored nonce when the rows hold every nonce from the pending count', () => {
    expect(lowestFreeNonce(3n, [3n, 4n, 5n])).toBe(6n);
  });

  test('a lagging node’s old pending count skips every nonce the rows hold', () => {
    expect(lowestFreeNonce(0n, [0n, 1n, 2n])).toBe(3n);
  });

  test('a nonce given back below nonces in flight is taken first', () => {
    expect(lowestFreeNonce(4n, [5n, 6n])).toBe(4n);
    expect(lowestFreeNonce(4n, [4n, 6n, 7n])).toBe(5n);
  });
});
