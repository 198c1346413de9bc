import { normalizeAddress } from '@pm/core/address';
import { MAX_ROW_ID } from '@pm/core/constants';
import type { JoinMarketBody } from '@pm/core/contract/markets';
import { potentialPayoutRecordWei } from '@pm/core/market-rules';
import { marketBetTerms, marketClosesAt } from '@pm/escrow/deposit-terms';
import { parseHex } from '../chain/parse-hex.ts';
import type { Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { VerifiedPayment } from '../escrow/deposits/verified-payment.ts';
import { recordBetPlaced } from '../leaderboard/user-stats-repository.ts';
import { type AcceptPaymentResult, acceptPayment } from '../payments/accept-payment.ts';
import { refusePayment } from '../payments/refuse-payment.ts';
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
 * POST /api/markets/:id/bets: a verified deposit into the escrow (decision 026) under the market's key
 * (its escrow id closing at its deadline), kind bet, with the side, becomes a bet, and the market's
 * totals and counts move in SQL in the same transaction. A deposit that reaches a closed market or is
 * below the minimum is refused and kept as owed back by the escrow (escrow_refunds: refundStake, or the
 * market's payout list), never by a server key. A market this server does not know, or one made before
 * the escrow (no escrow id), has no key to check a deposit against: the request is refused and
 * reconciliation, which reads every deposit, gives the money back. `stakeId`: reconciliation records
 * that one stake, from its own event.
 */
export async function joinMarket(
  deps: MarketsServiceDeps,
  marketId: number,
  body: JoinMarketBody,
  options: { stakeId?: bigint } = {},
): Promise<AcceptPaymentResult<JoinedMarket>> {
  // No payment can name a market id past what the database stores: the answer is simply "not found".
  if (marketId > MAX_ROW_ID) throw new AppError('MARKET_NOT_FOUND');
  const escrow = deps.payments.escrow;
  if (!escrow) {
    throw new AppError(
      'ESCROW_NOT_CONFIGURED',
      'Market bets are unavailable: no escrow contract is configured on this server.',
    );
  }
  const market = await findMarket(deps.payments.db, marketId);
  const amountRefusal = refuseAmount(BigInt(body.amountWei));
  if (!market) throw amountRefusal ?? new AppError('MARKET_NOT_FOUND');
  // A market made before the escrow takes no new bet (migration 0018).
  if (!market.escrowId) throw new AppError('MARKET_CLOSED');
  const terms = marketBetTerms(
    { escrowId: market.escrowId as `0x${string}`, closesAt: marketClosesAt(market.deadline) },
    body.prediction,
  );
  const input = {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.userAddress),
      amountWei: BigInt(body.amountWei),
      intent: { kind: 'bet' as const, marketId, prediction: body.prediction },
    },
    deposit: { escrow, terms, ...options },
    purpose: 'market_bet' as const,
    request: { marketId, body },
  };
  if (amountRefusal) return refusePayment(deps.payments, input, amountRefusal);
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
    stakeId: payment.deposit.stakeId,
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
  // (docs/decisions/024).
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
