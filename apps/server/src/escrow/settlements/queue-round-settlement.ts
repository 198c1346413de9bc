import { roundRefundReason } from '@pm/core/payouts';
import {
  ROUND_OUTCOME,
  type RoundOutcomeName,
  roundMarket,
  roundVerdictHash,
} from '@pm/escrow/round-settlement';
import type { Tx } from '../../db/client.ts';
import type { EscrowTarget } from '../escrow-target.ts';
import { findRound, insertDueSettlement, listRoundStakes } from './payout-lists-repository.ts';

/**
 * In the transaction that ends a round (docs/architecture.md "Rounds on the escrow"): its settlement
 * on the escrow becomes due, with the outcome and verdict it will post. Nothing is read from the
 * chain here (the engine's transaction never waits on it): the escrow-settlements job reads the
 * market's pool, builds the list and queues the operator's `settle` or `settleAsRefund`. A round
 * with no stake on the escrow (no bet, or only rows written without a deposit: test fixtures) has
 * nothing to settle there. Refund in full (`settleAsRefund`): a cancelled round, a draw, or no stake
 * on the winning side, core's `roundRefundReason`, the rule the payouts follow.
 */
export async function queueRoundSettlement(
  tx: Tx,
  input: { epoch: number; result: RoundOutcomeName; escrow: EscrowTarget },
): Promise<boolean> {
  const stakes = await listRoundStakes(tx, input.epoch);
  if (stakes.length === 0) return false;
  const round = await findRound(tx, input.epoch);
  if (!round) throw new Error(`round ${input.epoch} not found`);
  const pools = { bullWei: 0n, bearWei: 0n };
  for (const stake of stakes) {
    if (stake.position === 'bull') pools.bullWei += stake.amount;
    else pools.bearWei += stake.amount;
  }
  const refund = roundRefundReason(input.result, pools) !== null;
  const market = roundMarket(input.epoch, round.lockTime);
  return insertDueSettlement(tx, {
    marketKey: market.key,
    epoch: input.epoch,
    chainId: input.escrow.chainId,
    escrow: input.escrow.address.toLowerCase(),
    marketId: market.id,
    closesAt: market.closesAt,
    refund,
    outcome: ROUND_OUTCOME[input.result],
    verdictHash: roundVerdictHash({
      epoch: input.epoch,
      lockPrice: round.lockPrice,
      lockFeedRoundId: round.lockPriceRoundId,
      closePrice: round.closePrice,
      closeFeedRoundId: round.closePriceRoundId,
    }),
  });
}
