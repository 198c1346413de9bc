import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, WeiSchema } from './primitives.ts';

// GET /api/solvency (issue 20, docs/architecture.md "Proof of reserves"): the vault's balance at
// a block against everything it owes, in parts. Public: anyone can compare it with the chain.

/** A non-negative whole number as a decimal string (block numbers, the ratio: past a float's range). */
const DecimalIntegerSchema = z.string().check(z.regex(/^(0|[1-9][0-9]*)$/, 'must be a whole number'));

export const LiabilityPartsSchema = z.object({
  openMarketStakesWei: WeiSchema,
  openRoundStakesWei: WeiSchema,
  unclaimedMarketWei: WeiSchema,
  unclaimedRoundWei: WeiSchema,
  refundsOwedWei: WeiSchema,
  flagBondsHeldWei: WeiSchema,
  payoutsQueuedWei: WeiSchema,
  unrecordedTransfersWei: WeiSchema,
});

export const SolvencyResponseSchema = z.object({
  vaultAddress: AddressSchema,
  /** The block the balance was read at (read after the liabilities). */
  blockNumber: DecimalIntegerSchema,
  /** The vault's balance on chain at `blockNumber`. */
  vaultBalanceWei: WeiSchema,
  /** Everything the vault owes: the sum of `parts`. */
  liabilitiesWei: WeiSchema,
  parts: LiabilityPartsSchema,
  /** floor(balance × 10000 / liabilities); 10000 = exactly covered; null when nothing is owed. */
  reserveRatioBps: z.nullable(DecimalIntegerSchema),
  /** balance ≥ liabilities. */
  covered: z.boolean(),
  /** liabilities − balance when short, else 0. */
  shortfallWei: WeiSchema,
  checkedAt: IsoTimeSchema,
});
export type SolvencyResponse = z.infer<typeof SolvencyResponseSchema>;
