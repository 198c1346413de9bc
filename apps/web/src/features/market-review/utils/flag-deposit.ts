import { type DepositCall, depositCall } from '@pm/escrow/deposit-call';
import { flagBondTerms } from '@pm/escrow/deposit-terms';
import { getAddress } from 'viem';

/**
 * The transaction a flag's bond sends (decision 026, "Flag bonds"): a `deposit` into the escrow
 * (GET /api/config `escrow.address`) under the market's own key (its `escrowId` and `closesAt`), kind
 * flag, no side, the bond (market.review.bondWei, the contract's disputeBond) as its value; built by
 * the one encoder the server's tools share (@pm/escrow). The contract makes it a dispute.
 */
export function flagDepositCall(
  escrow: string,
  market: { escrowId: `0x${string}`; closesAt: number },
  bondWei: string,
): DepositCall {
  return depositCall(getAddress(escrow), flagBondTerms(market), BigInt(bondWei));
}
