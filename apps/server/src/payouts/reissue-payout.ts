import { payoutReissueTypedData } from '@pm/core/vault-transfers';
import { type Hex, isAddress, type PublicClient } from 'viem';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { owedBackWei } from '../payments/payments-repository.ts';
import { sumPayouts } from './claimable-repository.ts';
import {
  findPayout,
  insertPayout,
  linkPayoutBets,
  lockReleasedUnpaid,
  type PayoutRow,
} from './payouts-repository.ts';
import { linkRefundPayout } from './refunds-repository.ts';

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
  const failed = await findPayout(deps.db, input.payoutId);
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
    // The same rule as a claim (claimable-repository.ts), by id: the owner is another address now.
    const items = await lockReleasedUnpaid(tx, released);
    const total =
      sumPayouts(items.bets) +
      sumPayouts(items.oracleBets) +
      items.payments.reduce((sum, payment) => sum + owedBackWei(payment), 0n);
    if (total <= 0n) throw new AppError('BAD_REQUEST', `Nothing of payout #${failed.id} is left to pay.`);
    const payout = await insertPayout(tx, {
      chainId: failed.chainId,
      fromAddress: deps.vaultAddress,
      toAddress: newAddress,
      amount: total,
      kind: failed.kind,
      reissuedFrom: failed.id,
    });
    await linkPayoutBets(tx, payout.id, {
      betIds: items.bets.map((bet) => bet.id),
      oracleBetIds: items.oracleBets.map((bet) => bet.id),
    });
    await linkRefundPayout(
      tx,
      items.payments.map((payment) => payment.id),
      payout.id,
    );
    return payout;
  });
}

function newAddressChecked(address: string): `0x${string}` {
  if (!isAddress(address, { strict: false }))
    throw new AppError('BAD_REQUEST', `${address} is not an address.`);
  return address;
}
