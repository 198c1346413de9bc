import { payoutReissueTypedData } from '@pm/core/vault-transfers';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { type Hex, isAddress, type PublicClient } from 'viem';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import { bets, markets, oracleBets, payments, payouts } from '../db/schema.ts';
import { AppError } from '../errors/app-error.ts';
import { owedBackWei } from '../payments/payments-repository.ts';
import { claimableMarketBet, claimableRoundBet, sumPayouts } from './claimable-repository.ts';
import { linkPayoutBets } from './link-payout-bets.ts';
import type { PayoutRow } from './payout-processor-deps.ts';

const ReleasedSchema = z.object({
  bets: z.array(z.number()),
  oracleBets: z.array(z.number()),
  payments: z.array(z.number()),
});

/**
 * A failed payout (its recipient cannot receive a plain transfer) paid instead to another address,
 * which the original recipient names in an EIP-712 signature (app, chain, payout id, new address,
 * expiry). viem's verifyTypedData also accepts ERC-1271 contract wallets and EIP-7702 accounts.
 * Pays what the failed payout paid for and is still unpaid; a second re-issue finds nothing left.
 */
export async function reissuePayout(
  deps: { db: Db; chain: PublicClient; chainId: number; vaultAddress: string; now: Date },
  input: { payoutId: number; newAddress: string; expiry: bigint; signature: Hex },
): Promise<PayoutRow> {
  const [failed] = await deps.db.select().from(payouts).where(eq(payouts.id, input.payoutId));
  if (!failed) throw new AppError('NOT_FOUND', `Payout #${input.payoutId} does not exist.`);
  if (failed.status !== 'failed')
    throw new AppError('BAD_REQUEST', `Payout #${failed.id} is ${failed.status}, not failed.`);
  if (!isAddress(input.newAddress, { strict: false }))
    throw new AppError('BAD_REQUEST', 'The new address is not an address.');
  const newAddress = input.newAddress.toLowerCase();
  if (input.expiry * 1000n <= BigInt(deps.now.getTime()))
    throw new AppError('UNAUTHORIZED', 'The signature has expired.');
  const typedData = payoutReissueTypedData({
    chainId: deps.chainId,
    payoutId: failed.id,
    newAddress: newAddressChecked(newAddress),
    expiry: input.expiry,
  });
  const valid = await deps.chain.verifyTypedData({
    address: newAddressChecked(failed.toAddress),
    signature: input.signature,
    ...typedData,
  });
  if (!valid)
    throw new AppError('UNAUTHORIZED', `The signature is not ${failed.toAddress}'s for this re-issue.`);
  const released = ReleasedSchema.parse(failed.released ?? { bets: [], oracleBets: [], payments: [] });

  return deps.db.transaction(async (tx) => {
    const items = await lockUnpaid(tx, released);
    const total =
      sumPayouts(items.bets) +
      sumPayouts(items.oracleBets) +
      items.payments.reduce((sum, payment) => sum + owedBackWei(payment), 0n);
    if (total <= 0n) throw new AppError('BAD_REQUEST', `Nothing of payout #${failed.id} is left to pay.`);
    const [payout] = await tx
      .insert(payouts)
      .values({
        chainId: failed.chainId,
        fromAddress: deps.vaultAddress,
        toAddress: newAddress,
        amount: total,
        nonce: null,
        kind: failed.kind,
        reissuedFrom: failed.id,
      })
      .returning();
    if (!payout) throw new Error('payout insert returned nothing');
    await linkPayoutBets(tx, payout.id, {
      betIds: items.bets.map((bet) => bet.id),
      oracleBetIds: items.oracleBets.map((bet) => bet.id),
    });
    if (items.payments.length)
      await tx
        .update(payments)
        .set({ status: 'refund_due', refundPayoutId: payout.id, refundLastError: null })
        .where(
          inArray(
            payments.id,
            items.payments.map((payment) => payment.id),
          ),
        );
    return payout;
  });
}

/**
 * The released items still unpaid and in no other payout, locked for this transaction. The ids come
 * from our own failed payout row (for a re-issue that failed too, its owner is the new address).
 */
async function lockUnpaid(tx: Tx, released: z.infer<typeof ReleasedSchema>) {
  const none = [-1];
  // The same rule as a claim (claimable-repository.ts), by id: the owner is another address now.
  const marketBets = await tx
    .select({ bet: bets })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .where(and(inArray(bets.id, released.bets.length ? released.bets : none), claimableMarketBet))
    .for('update', { of: bets });
  const roundBets = await tx
    .select()
    .from(oracleBets)
    .where(
      and(inArray(oracleBets.id, released.oracleBets.length ? released.oracleBets : none), claimableRoundBet),
    )
    .for('update');
  const refunds = await tx
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.id, released.payments.length ? released.payments : none),
        isNull(payments.refundPayoutId),
        inArray(payments.status, ['refund_held', 'refund_due']),
      ),
    )
    .for('update');
  return { bets: marketBets.map(({ bet }) => bet), oracleBets: roundBets, payments: refunds };
}

function newAddressChecked(address: string): `0x${string}` {
  if (!isAddress(address, { strict: false }))
    throw new AppError('BAD_REQUEST', `${address} is not an address.`);
  return address;
}
