import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { execute, queryRows } from '../db/query-rows.ts';
import { bets, marketFlags, marketResolutionEvents, markets } from '../db/schema.ts';
import type { MarketRow } from '../markets/markets-repository.ts';
import type { ResolutionEventRow } from './resolution-events-repository.ts';

// Every query of a market's resolution lifecycle: closing at the deadline, claiming for
// judging, retries, the review window and its flags, settling the bets and the flags' bonds. The
// rules that decide (who wins, what a bond comes to) are core's and the callers'; these only read
// and write. Each function takes the pool or the caller's transaction, so a step taken inside a
// settlement transaction still goes through here.

export type MarketOutcome = 'YES' | 'NO' | 'VOID';

/** Active markets past their deadline stop taking bets and wait for judgement; their ids. */
export async function closeExpiredMarkets(tx: DbOrTx, now: Date): Promise<number[]> {
  const rows = await queryRows(
    tx,
    sql`update markets set status = 'settling', next_resolution_at = ${now}, updated_at = ${now}
        where status = 'active' and deadline <= ${now}
        returning id`,
    z.object({ id: z.number() }),
  );
  return rows.map((row) => row.id);
}

/** Settling markets, the ones waiting for a verdict, oldest deadline first. */
export async function listMarketsAwaitingResolution(db: DbOrTx): Promise<MarketRow[]> {
  return db.select().from(markets).where(eq(markets.status, 'settling')).orderBy(asc(markets.deadline));
}

/**
 * AI-judged markets still settling past `cutoff`: without a verdict since their deadline, or with a
 * flagged verdict since their window ended (decision 011). Oldest deadline first, at most `limit`.
 */
export async function listOverdueMarketIds(db: DbOrTx, cutoff: Date, limit: number): Promise<number[]> {
  const rows = await queryRows(
    db,
    sql`select id from markets
        where status = 'settling' and bet_type <> 'price_prediction'
          and ((proposed_at is null and deadline <= ${cutoff})
               or (proposed_at is not null and flag_count > 0 and review_ends_at <= ${cutoff}))
        order by deadline, id limit ${limit}`,
    z.object({ id: z.number() }),
  );
  return rows.map((row) => row.id);
}

const ClaimedMarketSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  resolution_instructions: z.string().nullable(),
  deadline: z.coerce.date(),
  resolver_model: z.string(),
  resolver_prompt_version: z.string(),
  resolution_attempts: z.number(),
});

/** What the judge reads of a market it claimed. */
export type ClaimedMarket = z.infer<typeof ClaimedMarketSchema>;

/**
 * One settling market due for judgement, leased in the same statement that claims it: its
 * next_resolution_at moves to `leaseUntil`, which hides it from every other instance. Only markets
 * judged by a model (not `operatorResolver`) under one of `promptVersions`, and not price markets.
 */
export async function claimMarketToJudge(
  db: DbOrTx,
  input: { now: Date; leaseUntil: Date; operatorResolver: string; promptVersions: readonly string[] },
): Promise<ClaimedMarket | undefined> {
  const [row] = await queryRows(
    db,
    sql`update markets set next_resolution_at = ${input.leaseUntil}
        where id = (select id from markets
                    where status = 'settling' and next_resolution_at <= ${input.now}
                      and proposed_at is null and bet_type <> 'price_prediction'
                      and resolver_model <> ${input.operatorResolver}
                      and resolver_prompt_version in (${sql.join(
                        input.promptVersions.map((version) => sql`${version}`),
                        sql`, `,
                      )})
                    order by next_resolution_at, id limit 1
                    for update skip locked)
        returning id, title, description, resolution_instructions, deadline, resolver_model,
                  resolver_prompt_version, resolution_attempts`,
    ClaimedMarketSchema,
  );
  return row;
}

/** Counts a judgement that decided nothing; `retryAt` is when to try again (none: the budget is spent). */
export async function recordJudgingAttempt(
  tx: DbOrTx,
  input: { marketId: number; attempts: number; error: string; retryAt?: Date },
): Promise<void> {
  await tx
    .update(markets)
    .set({
      resolutionAttempts: input.attempts,
      resolutionError: input.error,
      ...(input.retryAt ? { nextResolutionAt: input.retryAt } : {}),
    })
    .where(eq(markets.id, input.marketId));
}

/** A verdict the judge proposes, open to flags during the review window (decision 011). */
export type ProposedVerdict = {
  result: 'YES' | 'NO';
  model: string;
  promptVersion: string;
  confidence: number;
  analysis: string;
  sources: string[];
};

/**
 * Stores a verdict as the market's proposal, open to flags until `endsAt`. Only a settling market
 * with no proposal yet (a second instance judging the same market proposes nothing): whether it did.
 */
export async function storeProposedVerdict(
  tx: DbOrTx,
  input: {
    marketId: number;
    verdict: ProposedVerdict;
    endsAt: Date;
    now: Date;
  },
): Promise<boolean> {
  const { verdict, now } = input;
  const rows = await queryRows(
    tx,
    sql`update markets set proposed_result = ${verdict.result}, proposed_by = ${verdict.model},
               proposed_prompt_version = ${verdict.promptVersion},
               proposed_confidence = ${verdict.confidence}, proposed_analysis = ${verdict.analysis},
               proposed_sources = ${JSON.stringify(verdict.sources)}::jsonb,
               proposed_at = ${now}, review_ends_at = ${input.endsAt}, flag_count = 0,
               next_resolution_at = null, resolution_error = null, updated_at = ${now}
        where id = ${input.marketId} and status = 'settling' and proposed_at is null
        returning id`,
    z.object({ id: z.number() }),
  );
  return rows.length > 0;
}

/**
 * Markets whose review window has ended with no flag by `now`, oldest end first, at most `limit`.
 * `onChain` (an escrow configured: `now` is the chain's time) leaves out a market whose settlement
 * on the escrow is not final yet (due or published): its dispute window has not opened on chain, so
 * its review_ends_at is still the server's estimate (docs/decisions/034 "Settlement").
 */
export async function listReviewedMarketsDue(
  db: DbOrTx,
  input: { now: Date; onChain: boolean },
  limit: number,
): Promise<number[]> {
  const rows = await queryRows(
    db,
    sql`select id from markets
        where status = 'settling' and proposed_at is not null and flag_count = 0
          and review_ends_at <= ${input.now}
          and (not ${input.onChain}::boolean or not exists (
            select 1 from payout_lists
            where payout_lists.prediction_market_id = markets.id and payout_lists.status <> 'settled'))
        order by review_ends_at, id limit ${limit}`,
    z.object({ id: z.number() }),
  );
  return rows.map((row) => row.id);
}

/** One more flag on the market's proposed verdict: a flag keeps the window from settling it. */
export async function countFlag(tx: DbOrTx, marketId: number, now: Date): Promise<void> {
  await tx
    .update(markets)
    .set({ flagCount: sql`${markets.flagCount} + 1`, updatedAt: now })
    .where(eq(markets.id, marketId));
}

/** Whether the address has a bet on the market (only bettors may flag). */
export async function hasBetOnMarket(tx: DbOrTx, marketId: number, address: string): Promise<boolean> {
  const [bet] = await tx
    .select({ id: bets.id })
    .from(bets)
    .where(and(eq(bets.marketId, marketId), eq(bets.userAddress, address)))
    .limit(1);
  return bet !== undefined;
}

/** Records a flag with its bond held; false when the address has flagged this market already. */
export async function insertFlag(
  tx: DbOrTx,
  input: {
    marketId: number;
    address: string;
    reason: string;
    expiry: number;
    signature: string;
    bondPaymentId: number;
    bondWei: bigint;
    /** The escrow stake of the bond (its dispute deposit, decision 026). */
    stakeId: bigint | null;
    now: Date;
  },
): Promise<boolean> {
  const inserted = await tx
    .insert(marketFlags)
    .values({
      marketId: input.marketId,
      address: input.address,
      reason: input.reason,
      expiry: input.expiry,
      signature: input.signature,
      bondPaymentId: input.bondPaymentId,
      bondAmount: input.bondWei,
      bondStatus: 'held',
      stakeId: input.stakeId,
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .returning({ id: marketFlags.id });
  return inserted.length > 0;
}

/** The timeline's "flagged" event a bond already became: the answer to the same request sent again. */
export async function findFlagEventByPayment(
  db: DbOrTx,
  paymentId: number,
): Promise<ResolutionEventRow | undefined> {
  const [flag] = await db
    .select({ marketId: marketFlags.marketId, address: marketFlags.address })
    .from(marketFlags)
    .where(eq(marketFlags.bondPaymentId, paymentId))
    .limit(1);
  if (!flag) return undefined;
  const [event] = await db
    .select()
    .from(marketResolutionEvents)
    .where(
      and(
        eq(marketResolutionEvents.marketId, flag.marketId),
        eq(marketResolutionEvents.kind, 'flagged'),
        eq(marketResolutionEvents.actor, flag.address),
      ),
    )
    .limit(1);
  return event;
}

/** A market's flags whose bond is still held, for settlement to decide their fate. */
export async function listHeldFlagBonds(tx: DbOrTx, marketId: number) {
  return tx
    .select({
      id: marketFlags.id,
      address: marketFlags.address,
      amountWei: marketFlags.bondAmount,
      paymentId: marketFlags.bondPaymentId,
      stakeId: marketFlags.stakeId,
    })
    .from(marketFlags)
    .where(and(eq(marketFlags.marketId, marketId), eq(marketFlags.bondStatus, 'held')));
}

const PoolsSchema = z.object({ yes: z.string(), no: z.string() });

/** The pools from the bets themselves, not the running totals: what is paid is what was staked. */
export async function readStakedPools(
  tx: DbOrTx,
  marketId: number,
): Promise<{ yesWei: bigint; noWei: bigint }> {
  const [pools] = await queryRows(
    tx,
    sql`select coalesce(sum(amount) filter (where prediction = 'YES'), 0)::text as yes,
               coalesce(sum(amount) filter (where prediction = 'NO'), 0)::text as no
        from bets where market_id = ${marketId}`,
    PoolsSchema,
  );
  return { yesWei: BigInt(pools?.yes ?? '0'), noWei: BigInt(pools?.no ?? '0') };
}

/** Every pending bet of the market refunded: its return is its stake. How many. */
export async function refundPendingBets(tx: DbOrTx, marketId: number): Promise<number> {
  return execute(
    tx,
    sql`update bets set status = 'refunded', payout_amount = amount
        where market_id = ${marketId} and status = 'pending'`,
  );
}

/**
 * The winning side's pending bets won: each returns its stake plus
 * floor(stake × distributable / winning), in exact NUMERIC (div() truncates, which is floor for
 * these non-negative numbers; `/` would round). How many.
 */
export async function payWinningBets(
  tx: DbOrTx,
  input: { marketId: number; outcome: 'YES' | 'NO'; distributableWei: bigint; winningWei: bigint },
): Promise<number> {
  const distributable = sql`${input.distributableWei.toString()}::numeric`;
  const winning = sql`${input.winningWei.toString()}::numeric`;
  return execute(
    tx,
    sql`update bets set status = 'won', payout_amount = amount + div(amount * ${distributable}, ${winning})
        where market_id = ${input.marketId} and status = 'pending' and prediction = ${input.outcome}`,
  );
}

/** The other side's pending bets lost: they return nothing. How many. */
export async function markLosingBets(
  tx: DbOrTx,
  input: { marketId: number; outcome: 'YES' | 'NO' },
): Promise<number> {
  return execute(
    tx,
    sql`update bets set status = 'lost', payout_amount = 0
        where market_id = ${input.marketId} and status = 'pending' and prediction <> ${input.outcome}`,
  );
}

/** The market settled with its result and the verdict behind it. */
export async function markMarketSettled(
  tx: DbOrTx,
  input: {
    marketId: number;
    outcome: MarketOutcome;
    verdict: { analysis: string; confidence: number | null; sources: string[] };
    now: Date;
  },
): Promise<void> {
  await tx
    .update(markets)
    .set({
      status: 'settled',
      result: input.outcome,
      aiVerdict: input.verdict.analysis,
      aiConfidence: input.verdict.confidence,
      aiSources: input.verdict.sources,
      nextResolutionAt: null,
      updatedAt: input.now,
    })
    .where(eq(markets.id, input.marketId));
}

/** A flag bond's fate and what goes back to the flagger, if anything. */
export async function recordFlagBondFate(
  tx: DbOrTx,
  input: {
    flagId: number;
    fate: 'returned' | 'forfeited' | 'returned_void';
    returnWei: bigint;
    rewardWei: bigint;
  },
): Promise<void> {
  await tx
    .update(marketFlags)
    .set({ bondStatus: input.fate, bondReturnAmount: input.returnWei, bondRewardAmount: input.rewardWei })
    .where(eq(marketFlags.id, input.flagId));
}

/**
 * Every bet of the market returns its stake (the escrow refunded the market on its own: a veto, an
 * escape), whatever settlement wrote before; a bet whose stake has already left the escrow (its
 * record in escrow_stake_payouts: the escape's own refund) is `claimed`, the others `refunded`. How many.
 */
export async function refundEveryBet(tx: DbOrTx, marketId: number): Promise<number> {
  return execute(
    tx,
    sql`update bets b set payout_amount = b.amount,
               status = case when b.status = 'claimed'
                               or exists (select 1 from escrow_stake_payouts p where p.stake_id = b.stake_id)
                             then 'claimed' else 'refunded' end
        where b.market_id = ${marketId}`,
  );
}

/** The market shows refunded in full: settled, VOID (its verdict, if any, stays as the record). */
export async function markMarketRefunded(tx: DbOrTx, input: { marketId: number; now: Date }): Promise<void> {
  await tx
    .update(markets)
    .set({ status: 'settled', result: 'VOID', nextResolutionAt: null, updatedAt: input.now })
    .where(eq(markets.id, input.marketId));
}

/** A market's flags with a bond, whatever settlement made of it: an escrow refund hands each back. */
export async function listBondedFlags(tx: DbOrTx, marketId: number) {
  return tx
    .select({
      id: marketFlags.id,
      address: marketFlags.address,
      amountWei: marketFlags.bondAmount,
      bondStatus: marketFlags.bondStatus,
    })
    .from(marketFlags)
    .where(and(eq(marketFlags.marketId, marketId), sql`${marketFlags.bondAmount} is not null`))
    .orderBy(asc(marketFlags.id));
}
