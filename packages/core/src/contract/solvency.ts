import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, WeiSchema } from './primitives.ts';

// GET /api/solvency (decision 028, docs/architecture.md "Proof of reserves"): the escrow contract's
// balance at a block against everything it owes there (its own `liabilities()`). Public: anyone can
// read both figures from the contract at the same block and compare.

/** A non-negative whole number as a decimal string (block numbers, the ratio: past a float's range). */
const DecimalIntegerSchema = z.string().check(z.regex(/^(0|[1-9][0-9]*)$/, 'must be a whole number'));

export const SolvencyResponseSchema = z.object({
  /** The escrow contract that holds every stake. */
  escrowAddress: AddressSchema,
  /** The block both figures were read at. */
  blockNumber: DecimalIntegerSchema,
  /** The contract's balance at `blockNumber`. */
  balanceWei: WeiSchema,
  /** Everything the contract owes at `blockNumber`: pools, unclaimed payouts, credits, unsent fees. */
  liabilitiesWei: WeiSchema,
  /** balance − liabilities when covered, else 0: BNB forced in, which no bettor owns. */
  excessWei: WeiSchema,
  /** floor(balance × 10000 / liabilities); 10000 = exactly covered; null when nothing is owed. */
  reserveRatioBps: z.nullable(DecimalIntegerSchema),
  /** balance ≥ liabilities. */
  covered: z.boolean(),
  /** liabilities − balance when short, else 0. */
  shortfallWei: WeiSchema,
  checkedAt: IsoTimeSchema,
});
export type SolvencyResponse = z.infer<typeof SolvencyResponseSchema>;
