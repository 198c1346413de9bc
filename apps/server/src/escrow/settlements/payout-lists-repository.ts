import type { PayoutListDocument } from '@pm/escrow/payout-list';
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  bets,
  type MarketFate,
  marketFlags,
  markets,
  oracleBets,
  oracleRounds,
  type PayoutListStatus,
  payoutListLeaves,
  payoutLists,
} from '../../db/schema.ts';
import { publish } from '../../realtime/outbox-repository.ts';

// Every read and write of payout_lists and payout_list_leaves (docs/architecture.md "Rounds on the
// escrow", "Markets on the escrow"). Writes that move a settlement name the status (and attempt) they
// expect, so two instances never both apply a step.

export type PayoutListRow = typeof payoutLists.$inferSelect;
export type NewDueSettlement = Pick<
  typeof payoutLists.$inferInsert,
  | 'marketKey'
  | 'epoch'
  | 'predictionMarketId'
  | 'payoutDelayS'
  | 'chainId'
  | 'escrow'
  | 'marketId'
  | 'closesAt'
  | 'refund'
  | 'outcome'
  | 'verdictHash'
>;

/** Records a settlement as due (a round's or a market's); nothing when it has one already. */
export async function insertDueSettlement(db: DbOrTx, values: NewDueSettlement): Promise<boolean> {
  const rows = await db
    .insert(payoutLists)
    .values({ ...values, status: 'due' })
    .onConflictDoNothing()
    .returning({ id: payoutLists.id });
  return rows.length > 0;
}

/** Settlements the job moves now: due ones whose next try has come, and published ones, oldest first. */
export async function listSettlementsToAdvance(
  db: DbOrTx,
  now: Date,
  limit: number,
): Promise<PayoutListRow[]> {
  return db
    .select()
    .from(payoutLists)
    .where(
      sql`(${payoutLists.status} = 'due' and ${payoutLists.nextAttemptAt} <= ${now}) or ${payoutLists.status} = 'published'`,
    )
    .orderBy(asc(payoutLists.nextAttemptAt), asc(payoutLists.id))
    .limit(limit);
}

/**
 * Seconds since the oldest settlement not final on chain yet (due or published) was created, null when
 * none waits: the metrics' gauge. A settlement held for the operator's decision on an accepted flag
 * (its next attempt at `heldUntil`) is left out: it waits for a person, not for the job.
 */
export async function readOldestPendingSettlementAgeS(db: DbOrTx, heldUntil: Date): Promise<number | null> {
  const [row] = await db
    .select({ ageS: sql<number | null>`extract(epoch from now() - min(${payoutLists.createdAt}))::float8` })
    .from(payoutLists)
    .where(
      and(
        // A literal, the partial index's own predicate (payout_lists_pending_idx).
        sql`${payoutLists.status} in ('due', 'published')`,
        sql`${payoutLists.nextAttemptAt} < ${heldUntil}`,
      ),
    );
  const age = row?.ageS;
  return age === null || age === undefined ? null : Math.max(0, Number(age));
}

/**
 * Marks overdue, once, every settlement not final yet (due or published) created more than
 * `expectedS` ago, and answers the ones this call marked: of two instances' steps, only one marks
 * each. The database's clock, as for the age gauge (readOldestPendingSettlementAgeS). One held for
 * the operator's decision on a flag (its next attempt at `heldUntil`) waits for a person: left out.
 */
export async function markOverdueSettlements(
  db: DbOrTx,
  input: { expectedS: number; heldUntil: Date },
): Promise<PayoutListRow[]> {
  return db
    .update(payoutLists)
    .set({ overdueAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        // A literal, the partial index's own predicate (payout_lists_pending_idx).
        sql`${payoutLists.status} in ('due', 'published')`,
        isNull(payoutLists.overdueAt),
        sql`${payoutLists.createdAt} < now() - make_interval(secs => ${input.expectedS})`,
        lt(payoutLists.nextAttemptAt, input.heldUntil),
      ),
    )
    .returning();
}

export async function findPayoutListByKey(db: DbOrTx, marketKey: string): Promise<PayoutListRow | undefined> {
  const [row] = await db.select().from(payoutLists).where(eq(payoutLists.marketKey, marketKey.toLowerCase()));
  return row;
}

export async function findPayoutListByEpoch(db: DbOrTx, epoch: number): Promise<PayoutListRow | undefined> {
  const [row] = await db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
  return row;
}

/** A round's stakes on the escrow (its bets with a stake id), with what the round returns each. */
export async function listRoundStakes(db: DbOrTx, epoch: number) {
  return db
    .select({
      betId: oracleBets.id,
      stakeId: oracleBets.stakeId,
      owner: oracleBets.userAddress,
      position: oracleBets.position,
      amount: oracleBets.amount,
      payoutAmount: oracleBets.payoutAmount,
    })
    .from(oracleBets)
    .where(and(eq(oracleBets.epoch, epoch), isNotNull(oracleBets.stakeId)))
    .orderBy(asc(oracleBets.stakeId));
}

export async function findPayoutListByMarket(
  db: DbOrTx,
  marketId: number,
): Promise<PayoutListRow | undefined> {
  const [row] = await db.select().from(payoutLists).where(eq(payoutLists.predictionMarketId, marketId));
  return row;
}

/**
 * A market's settlement changed (another verdict, a list rebuilt from the settled bets, another
 * delay): due again at once, to be built anew. A published or settled row takes a new attempt, so
 * its action is a new one (the contract lets the operator amend a pending settlement); the builder
 * waits for the previous action to be final first, so the amendment is mined after it.
 */
export async function settlementChanged(
  db: DbOrTx,
  id: number,
  values: Pick<
    NewDueSettlement,
    'chainId' | 'escrow' | 'marketId' | 'closesAt' | 'refund' | 'outcome' | 'verdictHash' | 'payoutDelayS'
  > & { nextAttemptAt: Date },
): Promise<void> {
  await db
    .update(payoutLists)
    .set({
      ...values,
      status: 'due',
      attempts: sql`${payoutLists.attempts} + case when ${payoutLists.status} = 'due' then 0 else 1 end`,
      lastError: null,
      updatedAt: sql`now()`,
    })
    .where(eq(payoutLists.id, id));
}

/** Its due settlement no longer waits for a review window: built at once with the contract's minimum delay. */
export async function settlementDueAtMinimumDelay(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(payoutLists)
    .set({ payoutDelayS: null, nextAttemptAt: now, updatedAt: sql`now()` })
    .where(and(eq(payoutLists.id, id), eq(payoutLists.status, 'due')));
}

/**
 * What a market's settlement on the escrow reads of the market: its key and close, its verdict
 * (proposed, or settled) and its review. Read here rather than through the markets room, which sits
 * above the escrow (docs/architecture.md "Rooms and the direction rule").
 */
export async function findMarketToSettle(db: DbOrTx, marketId: number) {
  const [row] = await db
    .select({
      id: markets.id,
      status: markets.status,
      deadline: markets.deadline,
      escrowKey: markets.escrowKey,
      escrowId: markets.escrowId,
      result: markets.result,
      aiVerdict: markets.aiVerdict,
      proposedAt: markets.proposedAt,
      proposedResult: markets.proposedResult,
      proposedAnalysis: markets.proposedAnalysis,
      reviewEndsAt: markets.reviewEndsAt,
      flagCount: markets.flagCount,
    })
    .from(markets)
    .where(eq(markets.id, marketId));
  return row;
}

export type MarketToSettle = NonNullable<Awaited<ReturnType<typeof findMarketToSettle>>>;

/** A market's bets (every one, a stake id or not), with their side, stake, status and return. */
export async function listMarketStakes(db: DbOrTx, marketId: number) {
  return db
    .select({
      betId: bets.id,
      stakeId: bets.stakeId,
      owner: bets.userAddress,
      prediction: bets.prediction,
      amount: bets.amount,
      status: bets.status,
      payoutAmount: bets.payoutAmount,
    })
    .from(bets)
    .where(eq(bets.marketId, marketId))
    .orderBy(asc(bets.id));
}

/** A market's flag bonds staked on the escrow (a stake id), with what settlement gave each back. */
export async function listMarketBondStakes(db: DbOrTx, marketId: number) {
  return db
    .select({
      flagId: marketFlags.id,
      stakeId: marketFlags.stakeId,
      owner: marketFlags.address,
      amount: marketFlags.bondAmount,
      bondStatus: marketFlags.bondStatus,
      returnAmount: marketFlags.bondReturnAmount,
      rewardAmount: marketFlags.bondRewardAmount,
    })
    .from(marketFlags)
    .where(and(eq(marketFlags.marketId, marketId), isNotNull(marketFlags.stakeId)))
    .orderBy(asc(marketFlags.id));
}

export async function findRound(db: DbOrTx, epoch: number) {
  const [row] = await db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
  return row;
}

type Expected = { status: PayoutListStatus; attempts: number };

/**
 * The settlement's action is queued and its list published, with each paid leaf's proof (replacing
 * an earlier attempt's). Undefined when the row moved meanwhile (another instance): the caller rolls back.
 */
export async function publishSettlement(
  tx: DbOrTx,
  id: number,
  expected: Expected,
  input: {
    operatorTxId: number;
    publishedAt: Date;
    pool: bigint;
    /** The delay `settle` asked, when the row asked one of its own (a review window's rest). */
    payoutDelayS?: number | null;
    list: {
      document: PayoutListDocument;
      root: string;
      payoutTotal: bigint;
      fee: bigint;
      leaves: { stakeId: bigint; payout: bigint; proof: string[] }[];
    } | null;
  },
): Promise<PayoutListRow | undefined> {
  const [row] = await tx
    .update(payoutLists)
    .set({
      status: 'published',
      operatorTxId: input.operatorTxId,
      publishedAt: input.publishedAt,
      pool: input.pool,
      ...(input.payoutDelayS === undefined ? {} : { payoutDelayS: input.payoutDelayS }),
      document: input.list?.document ?? null,
      root: input.list?.root ?? null,
      payoutTotal: input.list?.payoutTotal ?? null,
      fee: input.list?.fee ?? null,
      lastError: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(payoutLists.id, id),
        eq(payoutLists.status, expected.status),
        eq(payoutLists.attempts, expected.attempts),
      ),
    )
    .returning();
  if (!row) return undefined;
  await tx.delete(payoutListLeaves).where(eq(payoutListLeaves.marketKey, row.marketKey));
  const leaves = input.list?.leaves ?? [];
  // In slices: one statement takes at most 65,535 parameters (the protocol counts them in 16 bits),
  // and a leaf is four, so a list of a market with 100k bets is several statements.
  for (let first = 0; first < leaves.length; first += LEAVES_PER_INSERT) {
    await tx
      .insert(payoutListLeaves)
      .values(
        leaves.slice(first, first + LEAVES_PER_INSERT).map((leaf) => ({ ...leaf, marketKey: row.marketKey })),
      );
  }
  return row;
}

/** Leaves written per INSERT: 20,000 parameters, well under a statement's 65,535. */
const LEAVES_PER_INSERT = 5_000;

/**
 * The settlement is final on chain: payouts (or refunds) open at `claimableAt`. A Predictions market's
 * pending settlement of its proposed verdict (docs/decisions/034 "Settlement": one clock) makes the
 * chain's dispute window the market's review window: its review_ends_at becomes `claimableAt`, in the
 * same transaction, while it is still in review unflagged, so the window the page shows, the flags the
 * server takes and the settlement of the review all follow the contract.
 */
export async function markSettled(
  db: Db,
  id: number,
  input: { settledBlock: bigint | null; settledAt: Date; claimableAt: Date },
): Promise<PayoutListRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(payoutLists)
      .set({ status: 'settled', ...input, lastError: null, updatedAt: sql`now()` })
      .where(and(eq(payoutLists.id, id), eq(payoutLists.status, 'published')))
      .returning();
    if (row?.predictionMarketId != null && !row.refund) {
      await tx
        .update(markets)
        .set({ reviewEndsAt: input.claimableAt, updatedAt: sql`now()` })
        .where(
          and(
            eq(markets.id, row.predictionMarketId),
            eq(markets.status, 'settling'),
            isNotNull(markets.proposedAt),
            eq(markets.flagCount, 0),
          ),
        );
    }
    // A market's page reads what the chain now holds: the bond a flag needs while the settlement is
    // pending, the claims once it opens. Its viewers refetch it.
    if (row?.predictionMarketId != null) await publish(tx, { topic: 'markets', id: row.predictionMarketId });
    return row;
  });
}

/**
 * Its action failed: due again for a fresh build at `nextAttemptAt` (the list is withdrawn meanwhile).
 * False when another step moved it first.
 */
export async function settlementDueAgain(
  db: DbOrTx,
  id: number,
  expected: Expected,
  input: { error: string; nextAttemptAt: Date },
): Promise<boolean> {
  const moved = await db
    .update(payoutLists)
    .set({
      status: 'due',
      attempts: sql`${payoutLists.attempts} + 1`,
      lastError: input.error.slice(0, 500),
      nextAttemptAt: input.nextAttemptAt,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(payoutLists.id, id),
        eq(payoutLists.status, expected.status),
        eq(payoutLists.attempts, expected.attempts),
      ),
    )
    .returning({ id: payoutLists.id });
  return moved.length > 0;
}

/** Why a step of it could not go on (retried at `nextAttemptAt`); its status stays. */
export async function recordSettlementError(
  db: DbOrTx,
  id: number,
  input: { error: string; nextAttemptAt: Date },
): Promise<void> {
  await db
    .update(payoutLists)
    .set({ lastError: input.error.slice(0, 500), nextAttemptAt: input.nextAttemptAt, updatedAt: sql`now()` })
    .where(eq(payoutLists.id, id));
}

/**
 * The escrow refunded the market on its own (docs/architecture.md "Following the chain": a
 * guardian's veto, an escape): its settlement's row becomes a refund in full, settled at the event's
 * block, marked with the fate, so the settlement job never builds or posts it again; its leaves go,
 * since the contract no longer pays any list. A market or round whose settlement never came gets a
 * row (`values`), so its stakes are offered as refunds like any refunded market's. False when the
 * row already has a fate (the event was applied before).
 */
export async function supersedeByFate(
  tx: DbOrTx,
  input: {
    values: Omit<NewDueSettlement, 'refund' | 'payoutDelayS'>;
    fate: MarketFate;
    settledBlock: bigint;
    settledAt: Date;
  },
): Promise<boolean> {
  const marketKey = input.values.marketKey.toLowerCase();
  const outcome = {
    refund: true,
    status: 'settled' as const,
    fate: input.fate,
    settledBlock: input.settledBlock,
    settledAt: input.settledAt,
    // A refund opens at once, as a voided market's does.
    claimableAt: input.settledAt,
    lastError: null,
  };
  const [existing] = await tx
    .select({ id: payoutLists.id, fate: payoutLists.fate })
    .from(payoutLists)
    .where(eq(payoutLists.marketKey, marketKey))
    .for('update');
  if (existing?.fate != null) return false;
  const [row] = existing
    ? await tx
        .update(payoutLists)
        .set({ ...outcome, updatedAt: sql`now()` })
        .where(eq(payoutLists.id, existing.id))
        .returning()
    : await tx
        .insert(payoutLists)
        .values({ ...input.values, marketKey, payoutDelayS: null, ...outcome })
        .returning();
  await tx.delete(payoutListLeaves).where(eq(payoutListLeaves.marketKey, marketKey));
  if (row?.predictionMarketId != null) await publish(tx, { topic: 'markets', id: row.predictionMarketId });
  return true;
}

/** The settled lists of these rounds, by epoch. */
export async function listSettledByEpochs(db: DbOrTx, epochs: number[], now: Date) {
  if (epochs.length === 0) return [];
  return db
    .select()
    .from(payoutLists)
    .where(
      and(
        inArray(payoutLists.epoch, epochs),
        eq(payoutLists.status, 'settled'),
        lte(payoutLists.claimableAt, now),
      ),
    );
}
