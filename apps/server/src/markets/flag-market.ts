import { normalizeAddress } from '@pm/core/address';
import { FLAG_SIGNATURE_MAX_TTL_S, type FlagMarketBody, flagTypedData } from '@pm/core/contract/review';
import { and, eq, sql } from 'drizzle-orm';
import { verifyTypedData } from 'viem';
import { parseHex } from '../chain/parse-hex.ts';
import type { Db } from '../db/client.ts';
import { bets, marketFlags, markets } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import { publish } from '../realtime/publish.ts';
import { lockMarket } from './markets-repository.ts';
import { type ResolutionEventRow, recordResolutionEvent } from './resolution-events.ts';
import { isInReview } from './review-window.ts';

// Issue 11, decision 011: during the review window any address with a bet on the market may flag
// the proposed verdict once, with a short reason, signed by its wallet (EIP-712 FlagMarket on this
// app's domain and chain). Replay: the signature names the market and an expiry at most
// FLAG_SIGNATURE_MAX_TTL_S ahead, and an address flags a market once (unique index). Only ECDSA
// signatures are checked (viem's pure verifyTypedData): an EOA, or an EIP-7702 account signing
// with its own key; a contract wallet (ERC-1271) cannot flag.

/** Records the flag, or throws with nothing changed. */
export async function flagMarket(
  db: Db,
  input: { marketId: number; body: FlagMarketBody; chainId: number; now: Date },
): Promise<ResolutionEventRow> {
  const { body, now } = input;
  const address = normalizeAddress(body.address);
  const nowS = Math.floor(now.getTime() / 1000);
  if (body.expiry <= nowS) throw new AppError('UNAUTHORIZED', 'The signature has expired. Sign again.');
  if (body.expiry > nowS + FLAG_SIGNATURE_MAX_TTL_S) {
    throw new AppError(
      'BAD_REQUEST',
      `The signature's expiry must be at most ${FLAG_SIGNATURE_MAX_TTL_S / 60} minutes ahead.`,
    );
  }
  const valid = await verifyTypedData({
    address,
    ...flagTypedData({
      chainId: input.chainId,
      marketId: input.marketId,
      reason: body.reason,
      expiry: body.expiry,
    }),
    signature: parseHex(body.signature),
  }).catch(() => false);
  if (!valid) {
    throw new AppError(
      'UNAUTHORIZED',
      'The signature does not match this address, this market, this reason or this chain.',
    );
  }

  return db.transaction(async (tx) => {
    // The row lock orders this flag against the window's end (settleReviewedMarkets locks too).
    const market = await lockMarket(tx, input.marketId);
    if (!market) throw new AppError('MARKET_NOT_FOUND');
    if (!isInReview(market) || !market.reviewEndsAt) throw new AppError('NOT_IN_REVIEW');
    if (market.reviewEndsAt.getTime() <= now.getTime()) throw new AppError('REVIEW_CLOSED');
    const [bet] = await tx
      .select({ id: bets.id })
      .from(bets)
      .where(and(eq(bets.marketId, market.id), eq(bets.userAddress, address)))
      .limit(1);
    if (!bet) throw new AppError('NOT_A_BETTOR');
    const inserted = await tx
      .insert(marketFlags)
      .values({
        marketId: market.id,
        address,
        reason: body.reason,
        expiry: body.expiry,
        signature: body.signature,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: marketFlags.id });
    if (inserted.length === 0) throw new AppError('ALREADY_FLAGGED');
    await tx
      .update(markets)
      .set({ flagCount: sql`${markets.flagCount} + 1`, updatedAt: now })
      .where(eq(markets.id, market.id));
    const event = await recordResolutionEvent(tx, {
      marketId: market.id,
      kind: 'flagged',
      actor: address,
      result: null,
      detail: body.reason,
      at: now,
    });
    await publish(tx, { topic: 'markets', id: market.id });
    return event;
  });
}
