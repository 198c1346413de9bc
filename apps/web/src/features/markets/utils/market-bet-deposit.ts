import type { Prediction } from '@pm/core/constants';
import type { Market } from '@pm/core/contract/markets';
import { type DepositCall, depositCall } from '@pm/escrow/deposit-call';
import { marketBetTerms } from '@pm/escrow/deposit-terms';
import { getAddress, type Hex } from 'viem';

// docs/api.md "Paid requests", decision 026: a market's bet is a `deposit` call into the escrow contract
// (GET /api/config `escrow.address`), built by the encoder the server's tools share (@pm/escrow), as a
// creation's is (features/market-create/utils/market-create-deposit.ts). The join dialog that uses it
// loads when shown, not with the page.

/**
 * A bet's deposit: under the market's escrow id and close (as GET /api/markets publishes them) with
 * the side. Null for a market made before the escrow, which takes no bet.
 */
export function marketBetDepositCall(
  escrow: string,
  market: Pick<Market, 'escrowId' | 'closesAt'>,
  prediction: Prediction,
  amountWei: bigint,
): DepositCall | null {
  if (!market.escrowId) return null;
  const terms = marketBetTerms({ escrowId: market.escrowId as Hex, closesAt: market.closesAt }, prediction);
  return depositCall(getAddress(escrow), terms, amountWei);
}
