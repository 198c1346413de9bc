import { normalizeAddress } from '@pm/core/address';
import { MAX_ROW_ID } from '@pm/core/constants';
import { FLAG_SIGNATURE_MAX_TTL_S, type FlagMarketBody, flagTypedData } from '@pm/core/contract/review';
import { isInReview } from '@pm/core/market-rules';
import { flagBondTerms, marketClosesAt } from '@pm/escrow/deposit-terms';
import { type Hex, verifyTypedData } from 'viem';
import type { Clock } from '../chain/clock.ts';
import { parseHex } from '../chain/parse-hex.ts';
import type { Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { VerifiedPayment } from '../escrow/deposits/verified-payment.ts';
import { holdSettlementForOperator } from '../escrow/settlements/dispute-settlement-repository.ts';
import { findMarket, lockMarket } from '../markets/markets-repository.ts';
import { type AcceptPaymentResult, acceptPayment, type PaymentContext } from '../payments/accept-payment.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { type ResolutionEventRow, recordResolutionEvent } from './resolution-events-repository.ts';
import { countFlag, findFlagEventByPayment, hasBetOnMarket, insertFlag } from './settlement-repository.ts';

// Decision 011: during the review window any address with a bet on the market may flag
// the proposed verdict once, with a short reason, signed by its wallet (EIP-712 FlagMarket on this
// app's domain and chain). Replay: the signature names the market and an expiry at most
// FLAG_SIGNATURE_MAX_TTL_S ahead, and an address flags a market once (unique index). Only ECDSA
// signatures are checked (viem's pure verifyTypedData): an EOA, or an EIP-7702 account signing
// with its own key; a contract wallet (ERC-1271) cannot flag.
// Decision 026 ("Flag bonds"): a flag carries a bond, a deposit into the escrow under the
// market's own key (flagBondTerms: kind flag, no side) while its verdict's settlement is pending on
// chain. The contract makes it a dispute (its `Disputed` event: the settlement is sent back, at least
// `disputeBond(key)` deposited) and the bond is the deposit's amount. The flag is accepted through the
// one payment path (acceptPayment with the bond's deposit terms), recorded with its stake id, or —
// whatever refuses it — kept as an escrow refund (refundStake: the dispute left the market open) and
// the market's settlement queued again, same verdict (accept-payment.ts,
// escrow/settlements/dispute-settlement-repository.ts).
// settle-market.ts decides the bond's fate (core's flag-bonds.ts); the settlement lists it by stake.

export type FlagMarketDeps = { payments: PaymentContext; clock: Clock };

/**
 * Records the flag with its bond, answers 202 while the bond is not final (the pending-payments
 * job replays the request), or throws: a refusal changes nothing but keeps a real bond as a refund.
 */
export async function flagMarket(
  deps: FlagMarketDeps,
  marketId: number,
  body: FlagMarketBody,
): Promise<AcceptPaymentResult<ResolutionEventRow>> {
  const escrow = deps.payments.escrow;
  if (!escrow)
    throw new AppError('ESCROW_NOT_CONFIGURED', 'Flags are unavailable: no escrow contract is configured.');
  if (marketId > MAX_ROW_ID) throw new AppError('MARKET_NOT_FOUND');
  // A bad signature touches no payment: anyone may post someone's bond hash with their address,
  // and must not turn their bond into a refund before their own request arrives. A dispute deposit
  // nobody flags with is refunded by escrow reconciliation after its grace (UNCLAIMED_FLAG_BOND).
  const badSignature = await checkSignature(deps, escrow.chainId, marketId, body);
  if (badSignature) throw badSignature;
  const market = await findMarket(deps.payments.db, marketId);
  // No key to check a deposit against (an unknown market, or one made before the escrow): the
  // request is refused and reconciliation, which reads every deposit, gives a real bond back.
  if (!market) throw new AppError('MARKET_NOT_FOUND');
  if (!market.escrowId)
    throw new AppError('NOT_IN_REVIEW', 'This market is not on the escrow: it takes no flag.');
  const terms = flagBondTerms({
    escrowId: market.escrowId as Hex,
    closesAt: marketClosesAt(market.deadline),
  });
  return acceptPayment(deps.payments, {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.address),
      amountWei: BigInt(body.amountWei),
      intent: { kind: 'flag' as const, marketId },
    },
    deposit: { escrow, terms },
    purpose: 'market_flag',
    request: { marketId, body },
    record: (tx, payment) => recordFlag(deps, tx, marketId, body, payment),
    findRecorded: findFlagEventByPayment,
  });
}

async function checkSignature(
  deps: FlagMarketDeps,
  chainId: number,
  marketId: number,
  body: FlagMarketBody,
): Promise<AppError | null> {
  const nowS = Math.floor(deps.clock.now().getTime() / 1000);
  if (body.expiry <= nowS) return new AppError('UNAUTHORIZED', 'The signature has expired. Sign again.');
  if (body.expiry > nowS + FLAG_SIGNATURE_MAX_TTL_S) {
    return new AppError(
      'BAD_REQUEST',
      `The signature's expiry must be at most ${FLAG_SIGNATURE_MAX_TTL_S / 60} minutes ahead.`,
    );
  }
  const valid = await verifyTypedData({
    address: normalizeAddress(body.address),
    ...flagTypedData({
      chainId,
      marketId,
      reason: body.reason,
      expiry: body.expiry,
    }),
    signature: parseHex(body.signature),
  }).catch(() => false);
  return valid
    ? null
    : new AppError(
        'UNAUTHORIZED',
        'The signature does not match this address, this market, this reason or this chain.',
      );
}

async function recordFlag(
  deps: FlagMarketDeps,
  tx: Tx,
  marketId: number,
  body: FlagMarketBody,
  payment: VerifiedPayment & { paymentId: number },
): Promise<ResolutionEventRow> {
  const now = deps.clock.now();
  const address = normalizeAddress(body.address);
  // The row lock orders this flag against the window's end (settleReviewedMarkets locks too).
  const market = await lockMarket(tx, marketId);
  if (!market) throw new AppError('MARKET_NOT_FOUND');
  // A market the DB settled takes no flag. After a dispute the contract accepted, that cannot happen:
  // with an escrow a review ends by the chain's time, past the pending settlement's claimableAt, and
  // only while the chain still holds that settlement, which a dispute sends back at once
  // (settleReviewedMarkets), so a flag still confirming or posted late finds its market in review.
  if (!isInReview(market) || !market.reviewEndsAt) throw new AppError('NOT_IN_REVIEW');
  // The contract's own word that the bond was enough and the settlement is sent back, by the chain's
  // clock within its dispute window: the window the review is (docs/decisions/034 "Settlement"), so
  // such a flag is never late, whatever the server's clock says. A deposit under the flag's terms that
  // disputed nothing (no settlement pending) is no flag: refused as late when paid or recorded after
  // the window's end, else as out of review.
  if (payment.deposit.disputes == null) {
    const endsAt = market.reviewEndsAt.getTime();
    if (endsAt <= now.getTime() || payment.blockTime.getTime() >= endsAt) throw new AppError('REVIEW_CLOSED');
    throw new AppError('NOT_IN_REVIEW', 'The deposit disputed no pending settlement of this market.');
  }
  const isBettor = await hasBetOnMarket(tx, market.id, address);
  if (!isBettor) throw new AppError('NOT_A_BETTOR');
  const bondWei = payment.amountWei;
  const inserted = await insertFlag(tx, {
    marketId: market.id,
    address,
    reason: body.reason,
    expiry: body.expiry,
    signature: body.signature,
    bondPaymentId: payment.paymentId,
    bondWei,
    stakeId: payment.deposit.stakeId,
    now,
  });
  if (!inserted) throw new AppError('ALREADY_FLAGGED');
  await countFlag(tx, market.id, now);
  // The disputed settlement never opens: its list waits for the operator's decision.
  await holdSettlementForOperator(tx, { marketId: market.id, now });
  const event = await recordResolutionEvent(tx, {
    marketId: market.id,
    kind: 'flagged',
    actor: address,
    result: null,
    detail: body.reason,
    amountWei: bondWei,
    at: now,
  });
  await publish(tx, { topic: 'markets', id: market.id });
  return event;
}
