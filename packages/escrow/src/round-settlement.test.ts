import { encodeAbiParameters, keccak256 } from 'viem';
import { describe, expect, test } from 'vitest';
import { roundMarketId } from './deposit-terms.ts';
import { marketKey } from './market-key.ts';
import { ROUND_OUTCOME, ROUND_VERDICT_DOMAIN, roundMarket, roundVerdictHash } from './round-settlement.ts';

describe('a round on the escrow', () => {
  test('its market is the round id closing at its lock, in whole seconds', () => {
    const lock = new Date(1_748_779_500_000);
    expect(roundMarket(7, lock)).toEqual({
      id: roundMarketId(7),
      closesAt: 1_748_779_500,
      key: marketKey(roundMarketId(7), 1_748_779_500),
    });
    expect(() => roundMarket(7, new Date(1_748_779_500_001))).toThrow(/whole second/);
  });

  test('its verdict hash is the documented encoding, a missing reading as 0', () => {
    const verdict = {
      epoch: 2_914_632,
      lockPrice: 60_012_345_678n,
      lockFeedRoundId: '18446744073709551620',
      closePrice: 60_100_000_000n,
      closeFeedRoundId: 18_446_744_073_709_551_621n,
    };
    const expected = keccak256(
      encodeAbiParameters(
        [
          { type: 'string' },
          { type: 'uint64' },
          { type: 'int256' },
          { type: 'uint256' },
          { type: 'int256' },
          { type: 'uint256' },
        ],
        [
          ROUND_VERDICT_DOMAIN,
          2_914_632n,
          60_012_345_678n,
          18_446_744_073_709_551_620n,
          60_100_000_000n,
          18_446_744_073_709_551_621n,
        ],
      ),
    );
    expect(roundVerdictHash(verdict)).toBe(expected);
    // Another close price, another verdict.
    expect(roundVerdictHash({ ...verdict, closePrice: 60_100_000_001n })).not.toBe(expected);
    const cancelled = {
      epoch: 5,
      lockPrice: null,
      lockFeedRoundId: null,
      closePrice: null,
      closeFeedRoundId: null,
    };
    expect(roundVerdictHash(cancelled)).toBe(
      roundVerdictHash({
        epoch: 5,
        lockPrice: 0n,
        lockFeedRoundId: 0n,
        closePrice: 0n,
        closeFeedRoundId: '0',
      }),
    );
    expect(() => roundVerdictHash({ ...cancelled, epoch: 0 })).toThrow(RangeError);
  });

  test('bull and bear are coded as the deposits code their sides', () => {
    expect(ROUND_OUTCOME).toEqual({ bull: 1, bear: 2, draw: 3, cancelled: 4 });
  });
});
