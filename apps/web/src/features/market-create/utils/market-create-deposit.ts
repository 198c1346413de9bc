import type { MarketDuration, Prediction } from '@pm/core/constants';
import { creationCloseAt } from '@pm/core/market-rules';
import { type DepositCall, depositCall } from '@pm/escrow/deposit-call';
import { marketCreateTerms, newMarketId } from '@pm/escrow/deposit-terms';
import { getAddress, type Hex } from 'viem';

// docs/api.md "Paid requests", decision 026: a market's creation is a `deposit` call into the escrow
// contract (GET /api/config `escrow.address`), built by the encoder the server's tools share
// (@pm/escrow), as a market's bet is (features/markets/utils/market-bet-deposit.ts) and a round's
// (features/oracle/utils/round-deposit.ts). The dialog that uses it loads when shown, not with the page.

/** The escrow id and close a new market asks for: a fresh id, and the server's now + the duration. */
export function newMarketEscrow(
  duration: MarketDuration,
  serverNowMs: number,
): { escrowId: Hex; closesAt: number } {
  return { escrowId: newMarketId(), closesAt: creationCloseAt(duration, Math.floor(serverNowMs / 1000)) };
}

/** The creation's deposit: under the id and close its body names, committing to the market's content hash. */
export function marketCreateDepositCall(
  escrow: string,
  creation: { escrowId: string; closesAt: number; contentHash: Hex; prediction: Prediction },
  amountWei: bigint,
): DepositCall {
  const terms = marketCreateTerms({ ...creation, escrowId: creation.escrowId as Hex });
  return depositCall(getAddress(escrow), terms, amountWei);
}
