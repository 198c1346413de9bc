import type { Position } from '@pm/core/constants';
import type { Round } from '@pm/core/contract/oracle';
import { type DepositCall, depositCall } from '@pm/escrow/deposit-call';
import { roundDepositTerms } from '@pm/escrow/deposit-terms';
import { getAddress } from 'viem';
import { roundTimes } from './round-view.ts';

/**
 * The transaction a bet on `round` sends (docs/api.md "Paid requests", decision 026): a `deposit` into
 * the escrow contract (GET /api/config `escrow.address`) with the stake as its value, for the round's id,
 * its lock as the close and the side; built by the encoder the server's tools share (@pm/escrow). Loaded
 * when a bet is placed, not with the page.
 */
export function roundDepositCall(
  escrow: string,
  round: Pick<Round, 'epoch' | 'startTime' | 'lockTime' | 'closeTime'>,
  position: Position,
  amountWei: bigint,
): DepositCall {
  const terms = roundDepositTerms(round.epoch, roundTimes(round).lockTime, position);
  return depositCall(getAddress(escrow), terms, amountWei);
}
