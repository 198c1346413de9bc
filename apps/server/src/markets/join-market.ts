import { normalizeAddress } from '@pm/core/address';
import { MAX_ROW_ID } from '@pm/core/constants';
import type { JoinMarketBody } from '@pm/core/contract/markets';
import { potentialPayoutRecordWei } from '@pm/core/market-rules';
import { parseHex } from '../chain/parse-hex.ts';
import type { Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { recordBetPlaced } from '../leaderboard/user-stats-repository.ts';
import { type AcceptPaymentResult, acceptPayment } from '../payments/accept-payment.ts';
import { refusePayment } from '../payments/refuse-payment.ts';
import type { VerifiedPayment } from '../payments/verify-payment.ts';
import { publishAll } from '../realtime/outbox-repository.ts';
import type { MarketsServiceDeps } from './create-market.ts';
import { refuseAmount } from './market-validation.ts';
import {
  addBetToOpenMarket,
  type BetRow,
  findBetByPayment,
  findMarket,
  insertBet,
  type MarketRow,
} from './markets-repository.ts';

export type JoinedMarket = { bet: BetRow; market: MarketRow };

/**
 * POST /api/markets/:id/bets: a verified payment becomes a bet, and the market's totals and counts
 * move in SQL in the same transaction. A valid payment that reaches a closed market is refused
 * with MARKET_CLOSED and kept as a refund (docs/architecture.md "Payment verification").
 */
export async function joinMarket(
  deps: MarketsServiceDeps,
  marketId: number,
  body: JoinMarketBody,
): Promise<AcceptPaymentResult<JoinedMarket>> {
  const input = {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.userAddress),
      amountWei: BigInt(body.amountWei),
      intent: { kind: 'bet' as const, marketId, prediction: body.prediction },
    },
    purpose: 'market_bet' as const,
    request: { marketId, body },
  };
  // No payment can name a market id past what the database stores (its intent does not decode),
  // so there is no money to keep: the answer is simply "not found".
  if (marketId > MAX_ROW_ID) throw new AppError('MARKET_NOT_FOUND');
  const market = await findMarket(deps.payments.db, marketId);
  const refusal = market ? refuseAmount(BigInt(body.amountWei)) : new AppError('MARKET_NOT_FOUND');
  if (refusal) return refusePayment(deps.payments, input, refusal);
  return acceptPayment(deps.payments, {
    ...input,
    record: (tx, payment) => recordJoin(deps, tx, marketId, body, payment),
    findRecorded: findBetByPayment,
  });
}

async function recordJoin(
  deps: MarketsServiceDeps,
  tx: Tx,
  marketId: number,
  body: JoinMarketBody,
  payment: VerifiedPayment & { paymentId: number },
): Promise<JoinedMarket> {
  const now = deps.clock.now();
  const user = normalizeAddress(payment.from);
  // The bet, its bettor's count and its events first: no lock of the market is needed for them, and
  // none of it outlives the transaction if the market turns out to be closed below.
  const bet = await insertBet(tx, {
    marketId,
    userAddress: user,
    prediction: body.prediction,
    amount: payment.amountWei,
    potentialPayout: potentialPayoutRecordWei(payment.amountWei),
    status: 'pending',
    isCreator: false,
    paymentId: payment.paymentId,
    txHash: payment.txHash.toLowerCase(),
    createdAt: now,
  });
  await recordBetPlaced(tx, user);
  await publishAll(tx, [
    { topic: 'markets', id: marketId },
    { topic: 'bets', id: bet.id, marketId },
    { topic: 'vault' },
  ]);
  // Paid on chain before the deadline, and recorded before it too: once the deadline passes the
  // market is being judged, and a late bet would know more than the others did. Checked and added
  // in one statement that locks the market row, so settlement (which closes the market under the
  // same lock) cannot interleave: a settlement that went first leaves no open market here, and the
  // bet above is rolled back with the rest. Last, because every bet of this market waits on that
  // lock until this transaction commits: it is held for this statement and the commit alone
  // (issue 21: bets end to end).
  const updated = await addBetToOpenMarket(tx, {
    marketId,
    prediction: body.prediction,
    amountWei: payment.amountWei,
    paidAt: payment.blockTime,
    now,
  });
  if (!updated) throw new AppError((await findMarket(tx, marketId)) ? 'MARKET_CLOSED' : 'MARKET_NOT_FOUND');
  return { bet, market: updated };
}
