import { type AnyColumn, and, asc, desc, eq, gte, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import {
  bets,
  escrowRelayStakes,
  escrowRelays,
  escrowStakePayouts,
  marketFlags,
  markets,
  operatorTransactions,
  oracleBets,
  payoutListLeaves,
  payoutLists,
} from '../../db/schema.ts';
import type { StakePaid } from '../escrow-chain.ts';
import { claimableEscrowBond, claimableMarketBet, claimableRoundBet } from './claimable-repository.ts';

// Relayed claims and refunds on the escrow, and what left it per stake (docs/architecture.md "Rounds
// on the escrow", "Claims"): round bets, market bets and flag bonds alike (migration 0018). Each
// function takes the pool or the caller's transaction.

export type EscrowRelayRow = typeof escrowRelays.$inferSelect;

/** Serialises claims across instances, so one owner's stakes never go into two relays at once. */
const CLAIMS_LOCK = 8173003;

export async function lockClaims(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CLAIMS_LOCK})`);
}

/** The owner's relays whose action may still mine. */
export async function listOpenRelays(db: DbOrTx, owner: string): Promise<EscrowRelayRow[]> {
  return db
    .select()
    .from(escrowRelays)
    .where(and(eq(escrowRelays.owner, owner), eq(escrowRelays.status, 'open')))
    .orderBy(asc(escrowRelays.id));
}

/**
 * When the owner's latest relay that reverted on chain ended, if one did at or after `since`: its
 * action mined and failed (a receipt with gas used), as opposed to one refused before it was sent.
 */
export async function findRevertedRelaySince(db: DbOrTx, owner: string, since: Date): Promise<Date | null> {
  const [row] = await db
    .select({ doneAt: escrowRelays.doneAt })
    .from(escrowRelays)
    .innerJoin(operatorTransactions, eq(operatorTransactions.id, escrowRelays.operatorTxId))
    .where(
      and(
        eq(escrowRelays.owner, owner),
        eq(escrowRelays.status, 'released'),
        gte(escrowRelays.doneAt, since),
        eq(operatorTransactions.status, 'failed'),
        isNotNull(operatorTransactions.gasUsed),
      ),
    )
    .orderBy(desc(escrowRelays.doneAt))
    .limit(1);
  return row?.doneAt ?? null;
}

/** Every open relay (the job finishes those a request stopped waiting for). */
export async function listAllOpenRelays(db: DbOrTx, limit: number): Promise<EscrowRelayRow[]> {
  return db
    .select()
    .from(escrowRelays)
    .where(eq(escrowRelays.status, 'open'))
    .orderBy(asc(escrowRelays.id))
    .limit(limit);
}

/** How many bets (and bonds) a relay carries and what they return in all. */
export async function relayTotals(db: DbOrTx, relayId: number): Promise<{ count: number; wei: bigint }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      wei: sql`coalesce(sum(coalesce(${oracleBets.payoutAmount}, ${bets.payoutAmount}, ${marketFlags.bondReturnAmount})), 0)`.mapWith(
        BigInt,
      ),
    })
    .from(escrowRelayStakes)
    .leftJoin(oracleBets, eq(oracleBets.id, escrowRelayStakes.oracleBetId))
    .leftJoin(bets, eq(bets.id, escrowRelayStakes.betId))
    .leftJoin(marketFlags, eq(marketFlags.id, escrowRelayStakes.flagId))
    .where(eq(escrowRelayStakes.relayId, relayId));
  return { count: Number(row?.count ?? 0), wei: row?.wei ?? 0n };
}

/**
 * What an escrow stake is in the server's records (exactly one, as escrow_relay_stakes says): a round
 * bet, a market bet or a flag's bond (migration 0018).
 */
export type EscrowStakeRef = { oracleBetId: number } | { betId: number } | { flagId: number };

/** Which claimable stakes: a game's (markets: its bets and returned bonds), or these rows only. */
export type EscrowClaimableFilter = {
  games: 'markets' | 'oracle' | 'all';
  /** Only these rows (the re-check before a relay, or a claim of one market bet). */
  only?: { oracleBetIds: number[]; betIds: number[]; flagIds: number[] };
};

/** A stake the escrow pays its owner now, with what the server's records say it returns. */
export type EscrowClaimableStake = {
  ref: EscrowStakeRef;
  stakeId: bigint | null;
  owner: string;
  /** The stake as deposited (a bond: the bond). */
  amount: bigint;
  /** The return the server recorded (stake included; a returned bond: bond + reward). */
  payoutAmount: bigint | null;
  marketKey: string;
  refund: boolean;
  settledBlock: bigint | null;
  leafPayout: bigint | null;
  proof: string[] | null;
};

/** Not carried by an open relay already. */
function notInOpenRelay(stakeId: AnyColumn) {
  return sql`not exists (select 1 from ${escrowRelayStakes} s join ${escrowRelays} r on r.id = s.relay_id
              where s.stake_id = ${stakeId} and r.status = 'open')`;
}

/** A settlement final on chain whose payouts are open at `now` (a refund: from its settlement on). */
function payoutsOpen(now: Date) {
  return and(
    eq(payoutLists.status, 'settled'),
    or(eq(payoutLists.refund, true), lte(payoutLists.claimableAt, now)),
  );
}

const onlyIds = (ids: number[]) => (ids.length ? ids : [-1]);

/**
 * An owner's stakes the escrow pays now: round bets and market bets with a return not paid, and
 * returned flag bonds (bond_status returned or returned_void) whose stake has not left the escrow,
 * each in no open relay, of a market whose settlement is final with its payouts (or refunds) open at
 * `now`. With each its market, refund flag and (a winner) its leaf. Lowest stake first.
 */
export async function listEscrowClaimable(
  db: DbOrTx,
  owner: string,
  now: Date,
  options: EscrowClaimableFilter & { limit: number },
): Promise<EscrowClaimableStake[]> {
  const { games, only, limit } = options;
  const leaf = { leafPayout: payoutListLeaves.payout, proof: payoutListLeaves.proof };
  const list = {
    marketKey: payoutLists.marketKey,
    refund: payoutLists.refund,
    settledBlock: payoutLists.settledBlock,
  };
  const rounds =
    games === 'markets' || (only && only.oracleBetIds.length === 0)
      ? []
      : await db
          .select({
            id: oracleBets.id,
            stakeId: oracleBets.stakeId,
            owner: oracleBets.userAddress,
            amount: oracleBets.amount,
            payoutAmount: oracleBets.payoutAmount,
            ...list,
            ...leaf,
          })
          .from(oracleBets)
          .innerJoin(payoutLists, eq(payoutLists.epoch, oracleBets.epoch))
          .leftJoin(payoutListLeaves, eq(payoutListLeaves.stakeId, oracleBets.stakeId))
          .where(
            and(
              eq(oracleBets.userAddress, owner),
              claimableRoundBet,
              isNotNull(oracleBets.stakeId),
              payoutsOpen(now),
              only ? inArray(oracleBets.id, onlyIds(only.oracleBetIds)) : undefined,
              notInOpenRelay(oracleBets.stakeId),
            ),
          )
          .orderBy(asc(oracleBets.stakeId))
          .limit(limit);
  const marketBets =
    games === 'oracle' || (only && only.betIds.length === 0)
      ? []
      : await db
          .select({
            id: bets.id,
            stakeId: bets.stakeId,
            owner: bets.userAddress,
            amount: bets.amount,
            payoutAmount: bets.payoutAmount,
            ...list,
            ...leaf,
          })
          .from(bets)
          .innerJoin(markets, eq(markets.id, bets.marketId))
          .innerJoin(payoutLists, eq(payoutLists.predictionMarketId, bets.marketId))
          .leftJoin(payoutListLeaves, eq(payoutListLeaves.stakeId, bets.stakeId))
          .where(
            and(
              eq(bets.userAddress, owner),
              claimableMarketBet,
              sql`${bets.payoutAmount} > 0`,
              isNotNull(bets.stakeId),
              payoutsOpen(now),
              only ? inArray(bets.id, onlyIds(only.betIds)) : undefined,
              notInOpenRelay(bets.stakeId),
            ),
          )
          .orderBy(asc(bets.stakeId))
          .limit(limit);
  const bonds =
    games === 'oracle' || (only && only.flagIds.length === 0)
      ? []
      : await db
          .select({
            id: marketFlags.id,
            stakeId: marketFlags.stakeId,
            owner: marketFlags.address,
            amount: sql`coalesce(${marketFlags.bondAmount}, 0)`.mapWith(BigInt),
            payoutAmount: marketFlags.bondReturnAmount,
            ...list,
            ...leaf,
          })
          .from(marketFlags)
          .innerJoin(payoutLists, eq(payoutLists.predictionMarketId, marketFlags.marketId))
          .leftJoin(payoutListLeaves, eq(payoutListLeaves.stakeId, marketFlags.stakeId))
          .where(
            and(
              eq(marketFlags.address, owner),
              claimableEscrowBond,
              payoutsOpen(now),
              only ? inArray(marketFlags.id, onlyIds(only.flagIds)) : undefined,
              notInOpenRelay(marketFlags.stakeId),
            ),
          )
          .orderBy(asc(marketFlags.stakeId))
          .limit(limit);
  return [
    ...rounds.map(({ id, ...row }) => ({ ref: { oracleBetId: id }, ...row })),
    ...marketBets.map(({ id, ...row }) => ({ ref: { betId: id }, ...row })),
    ...bonds.map(({ id, ...row }) => ({ ref: { flagId: id }, ...row })),
  ]
    .sort((a, b) => ((a.stakeId ?? 0n) < (b.stakeId ?? 0n) ? -1 : 1))
    .slice(0, limit);
}

/** The earliest time an owner's stakes on the escrow not claimable yet become so (null: none waits). */
export async function nextEscrowClaimableAt(db: DbOrTx, owner: string, now: Date): Promise<Date | null> {
  const at = sql<Date | null>`min(${payoutLists.claimableAt})`.mapWith((value) =>
    value ? new Date(value) : null,
  );
  const waiting = and(
    eq(payoutLists.status, 'settled'),
    eq(payoutLists.refund, false),
    sql`${payoutLists.claimableAt} > ${now}`,
  );
  const [round] = await db
    .select({ at })
    .from(oracleBets)
    .innerJoin(payoutLists, eq(payoutLists.epoch, oracleBets.epoch))
    .where(and(eq(oracleBets.userAddress, owner), claimableRoundBet, isNotNull(oracleBets.stakeId), waiting));
  const [market] = await db
    .select({ at })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .innerJoin(payoutLists, eq(payoutLists.predictionMarketId, bets.marketId))
    .where(and(eq(bets.userAddress, owner), claimableMarketBet, isNotNull(bets.stakeId), waiting));
  const [bond] = await db
    .select({ at })
    .from(marketFlags)
    .innerJoin(payoutLists, eq(payoutLists.predictionMarketId, marketFlags.marketId))
    .where(and(eq(marketFlags.address, owner), claimableEscrowBond, waiting));
  const times = [round?.at, market?.at, bond?.at].filter((time): time is Date => time instanceof Date);
  return times.length ? new Date(Math.min(...times.map((time) => time.getTime()))) : null;
}

/** Whether the owner has bets (or returned bonds) on the escrow whose settlement is not final yet. */
export async function countEscrowBetsAwaitingSettlement(db: DbOrTx, owner: string): Promise<number> {
  const unsettled = sql`(${payoutLists.status} is null or ${payoutLists.status} <> 'settled')`;
  const count = sql<number>`count(*)::int`;
  const [rounds] = await db
    .select({ count })
    .from(oracleBets)
    .leftJoin(payoutLists, eq(payoutLists.epoch, oracleBets.epoch))
    .where(
      and(eq(oracleBets.userAddress, owner), claimableRoundBet, isNotNull(oracleBets.stakeId), unsettled),
    );
  const [marketBets] = await db
    .select({ count })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .leftJoin(payoutLists, eq(payoutLists.predictionMarketId, bets.marketId))
    .where(and(eq(bets.userAddress, owner), claimableMarketBet, isNotNull(bets.stakeId), unsettled));
  const [bonds] = await db
    .select({ count })
    .from(marketFlags)
    .leftJoin(payoutLists, eq(payoutLists.predictionMarketId, marketFlags.marketId))
    .where(and(eq(marketFlags.address, owner), claimableEscrowBond, unsettled));
  return Number(rounds?.count ?? 0) + Number(marketBets?.count ?? 0) + Number(bonds?.count ?? 0);
}

/** A new relay of these stakes, carried by operator action `operatorTxId`. */
export async function insertRelay(
  tx: DbOrTx,
  input: {
    kind: 'claim' | 'refund';
    owner: string;
    operatorTxId: number;
    stakes: { stakeId: bigint; ref: EscrowStakeRef }[];
  },
): Promise<EscrowRelayRow> {
  const [relay] = await tx
    .insert(escrowRelays)
    .values({ kind: input.kind, owner: input.owner, operatorTxId: input.operatorTxId })
    .returning();
  if (!relay) throw new Error('inserting the relay returned nothing');
  await tx
    .insert(escrowRelayStakes)
    .values(input.stakes.map((stake) => ({ relayId: relay.id, stakeId: stake.stakeId, ...stake.ref })));
  return relay;
}

/** Ends an open relay: done (its events recorded) or released (it failed: its stakes are free again). */
export async function endRelay(
  tx: DbOrTx,
  id: number,
  status: 'done' | 'released',
  lastError: string | null,
): Promise<EscrowRelayRow | undefined> {
  const [row] = await tx
    .update(escrowRelays)
    .set({ status, lastError: lastError?.slice(0, 500) ?? null, doneAt: sql`now()` })
    .where(and(eq(escrowRelays.id, id), eq(escrowRelays.status, 'open')))
    .returning();
  return row;
}

/**
 * Records what left the escrow per stake, from final events (once: a stake is spent once), and
 * marks each stake's bet paid (`claimed`): pushed to its owner, or credited to the owner's balance
 * on the contract (a push that failed), which the owner withdraws. Answers the stakes newly recorded.
 */
export async function recordStakesPaid(
  tx: DbOrTx,
  paid: readonly StakePaid[],
  relayId: number | null,
): Promise<bigint[]> {
  if (paid.length === 0) return [];
  const rows = await tx
    .insert(escrowStakePayouts)
    .values(
      paid.map((stake) => ({
        stakeId: stake.stakeId,
        marketKey: stake.market.toLowerCase(),
        owner: stake.owner.toLowerCase(),
        kind: stake.kind,
        amount: stake.amount,
        credited: stake.credited,
        txHash: stake.txHash.toLowerCase(),
        blockNumber: stake.blockNumber,
        relayId,
      })),
    )
    .onConflictDoNothing()
    .returning({ stakeId: escrowStakePayouts.stakeId });
  const stakeIds = paid.map((stake) => stake.stakeId);
  await tx
    .update(oracleBets)
    .set({ claimed: true })
    .where(and(inArray(oracleBets.stakeId, stakeIds), eq(oracleBets.claimed, false)));
  // A market bet paid is `claimed`; a bond is paid once its stake's
  // row above exists (escrow_stake_payouts is its record: claimed or refunded, credited or pushed).
  await tx
    .update(bets)
    .set({ status: 'claimed' })
    .where(and(inArray(bets.stakeId, stakeIds), sql`${bets.status} in ('won', 'refunded')`));
  return rows.map((row) => row.stakeId);
}

/**
 * Of these stakes, the ones the app holds as a round bet, a market bet or a flag's bond: what a watcher
 * of the escrow's payouts records (a refused deposit's refund is escrow_refunds' own record).
 */
export async function findBettorStakeIds(db: DbOrTx, stakeIds: readonly bigint[]): Promise<Set<bigint>> {
  if (stakeIds.length === 0) return new Set();
  const ids = [...stakeIds];
  const [rounds, marketBets, flags] = await Promise.all([
    db.select({ stakeId: oracleBets.stakeId }).from(oracleBets).where(inArray(oracleBets.stakeId, ids)),
    db.select({ stakeId: bets.stakeId }).from(bets).where(inArray(bets.stakeId, ids)),
    db.select({ stakeId: marketFlags.stakeId }).from(marketFlags).where(inArray(marketFlags.stakeId, ids)),
  ]);
  return new Set(
    [...rounds, ...marketBets, ...flags].flatMap((row) => (row.stakeId === null ? [] : [row.stakeId])),
  );
}

/** What left the escrow for these stakes, as recorded. */
export async function listStakePayouts(db: DbOrTx, stakeIds: bigint[]) {
  if (stakeIds.length === 0) return [];
  return db.select().from(escrowStakePayouts).where(inArray(escrowStakePayouts.stakeId, stakeIds));
}
