import { decidePriceOutcome } from '@pm/core/price-outcome';
import type { Address, Hex, PublicClient } from 'viem';
import { marketEscrowAbi } from './market-escrow.gen.ts';
import { MARKET_KIND } from './market-escrow-keys.ts';
import { roundInForceAt } from './price-settlement-call.ts';

// A settled round's or price market's outcome recomputed from its feed's own rounds by core's rule
// (@pm/core/price-outcome; docs/product.md §4, decision 020), apart from the contract's proof
// (docs/decisions/031): what `vault:verify` and a guardian's watcher check, and what anyone can check
// against any node.

export type PriceOutcomeCheck =
  | { settled: false }
  | {
      settled: true;
      recorded: { outcome: number; lockRoundId: bigint; closeRoundId: bigint };
      expected: { outcome: number; lockRoundId: bigint; closeRoundId: bigint } | { unknown: string };
      agrees: boolean;
    };

/** `State.Settled` and `State.Refunding`: a price kind's two outcomes. */
const SETTLED = 2;
const REFUNDING = 4;

export async function verifyPriceOutcome(
  client: PublicClient,
  escrow: Address,
  market: Hex,
): Promise<PriceOutcomeCheck> {
  const contract = { address: escrow, abi: marketEscrowAbi } as const;
  const [, closesAt, , kind, state, outcome, coin] = await client.readContract({
    ...contract,
    functionName: 'markets',
    args: [market],
  });
  if (kind !== MARKET_KIND.round && kind !== MARKET_KIND.priceMarket)
    throw new Error(`${market} is not a price kind`);
  const [lockReading, closeReading] = await client.readContract({
    ...contract,
    functionName: 'readings',
    args: [market],
  });
  const recorded = { outcome, lockRoundId: lockReading.roundId, closeRoundId: closeReading.roundId };
  // An escape refunds an unsettled market without any reading: nothing of the feed to recompute.
  if ((state !== SETTLED && state !== REFUNDING) || closeReading.roundId === 0n) return { settled: false };

  const [target, decidesAt, above] = await client.readContract({
    ...contract,
    functionName: 'priceTerms',
    args: [market],
  });
  const feed = await client.readContract({ ...contract, functionName: 'feeds', args: [coin] });
  const maxAgeMs = (await client.readContract({ ...contract, functionName: 'maxPriceAge' })) * 1000;
  const [yes, no] = await client.readContract({ ...contract, functionName: 'sides', args: [market] });

  const close = await roundInForceAt(client, feed, decidesAt);
  if (!close.found) return { settled: true, recorded, expected: { unknown: close.reason }, agrees: false };
  const lock = kind === MARKET_KIND.round ? await roundInForceAt(client, feed, closesAt) : undefined;
  if (lock && !lock.found)
    return { settled: true, recorded, expected: { unknown: lock.reason }, agrees: false };
  const lockRound = lock?.found ? lock.round : undefined;

  const priced = { maxAgeMs, sides: { yes, no }, close: { round: close.round, instant: decidesAt } };
  const expected = decidePriceOutcome(
    lockRound
      ? { ...priced, kind: 'round', lock: { round: lockRound, instant: closesAt } }
      : { ...priced, kind: 'priceMarket', target, above },
  );
  const expectedReadings = {
    outcome: expected,
    lockRoundId: lockRound?.roundId ?? 0n,
    closeRoundId: close.round.roundId,
  };
  const agrees =
    expectedReadings.outcome === recorded.outcome &&
    expectedReadings.lockRoundId === recorded.lockRoundId &&
    expectedReadings.closeRoundId === recorded.closeRoundId;
  return { settled: true, recorded, expected: expectedReadings, agrees };
}
