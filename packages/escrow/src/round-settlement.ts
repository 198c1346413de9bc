import { encodeAbiParameters, type Hex, keccak256 } from 'viem';
import { roundMarketId } from './deposit-terms.ts';
import { marketKey } from './market-key.ts';

// docs/decisions/026-app-on-the-escrow.md "Settlement, claims and refunds", for oracle rounds: what
// the operator posts as a round's `outcome` and `verdictHash`, so anyone holding the round's public
// record (GET /api/oracle/rounds: its prices and feed round ids) recomputes the commitment on chain.

/** A round's `outcome` code on chain. bull and bear match the deposits' side codes (SIDE_CODE). */
export const ROUND_OUTCOME = { bull: 1, bear: 2, draw: 3, cancelled: 4 } as const;
export type RoundOutcomeName = keyof typeof ROUND_OUTCOME;

/** The domain of a round's verdict hash: a round's verdict can never be read as anything else's. */
export const ROUND_VERDICT_DOMAIN = 'bnbpredict.round.verdict.v1';

/** The readings a round's result was decided by, as the round's record stores them. */
export type RoundVerdict = {
  epoch: number;
  /** The lock price in the feed's units (8 decimals), null when the round was cancelled before it. */
  lockPrice: bigint | null;
  /** The feed's round id of the lock reading (Chainlink's uint80), null for feeds without one. */
  lockFeedRoundId: string | bigint | null;
  closePrice: bigint | null;
  closeFeedRoundId: string | bigint | null;
};

/**
 * `verdictHash` of a round: keccak256(abi.encode(string ROUND_VERDICT_DOMAIN, uint64 epoch,
 * int256 lockPrice, uint256 lockFeedRoundId, int256 closePrice, uint256 closeFeedRoundId)), a
 * missing price or round id encoded as 0 (a cancelled round, a feed without round ids).
 */
export function roundVerdictHash(verdict: RoundVerdict): Hex {
  if (!Number.isSafeInteger(verdict.epoch) || verdict.epoch <= 0) {
    throw new RangeError(`epoch must be a positive integer, got ${verdict.epoch}`);
  }
  const id = (value: string | bigint | null) => (value === null ? 0n : BigInt(value));
  return keccak256(
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
        BigInt(verdict.epoch),
        verdict.lockPrice ?? 0n,
        id(verdict.lockFeedRoundId),
        verdict.closePrice ?? 0n,
        id(verdict.closeFeedRoundId),
      ],
    ),
  );
}

/** A round's market on the escrow: its raw id, its close (the round's lock, whole seconds) and its key. */
export function roundMarket(epoch: number, lockTime: Date): { id: Hex; closesAt: number; key: Hex } {
  const ms = lockTime.getTime();
  if (!Number.isFinite(ms) || ms % 1000 !== 0) {
    throw new RangeError(`a round's lock is a whole second, got ${lockTime.toISOString()}`);
  }
  const id = roundMarketId(epoch);
  const closesAt = ms / 1000;
  return { id, closesAt, key: marketKey(id, closesAt) };
}
