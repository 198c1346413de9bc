import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import {
  escrowRelayStakes,
  escrowRelays,
  escrowStakePayouts,
  oracleBets,
  payoutListLeaves,
  payoutLists,
} from '../db/schema.ts';
import { claimableRoundBet } from '../payouts/claimable-repository.ts';
import type { StakePaid } from './escrow-chain.ts';

// Relayed claims and refunds on the escrow, and what left it per stake (docs/architecture.md "Rounds
// on the escrow"). Each function takes the pool or the caller's transaction.

export type EscrowRelayRow = typeof escrowRelays.$inferSelect;

/** The owner's relays whose action may still mine. */
export async function listOpenRelays(db: DbOrTx, owner: string): Promise<EscrowRelayRow[]> {
  return db
    .select()
    .from(escrowRelays)
    .where(and(eq(escrowRelays.owner, owner), eq(escrowRelays.status, 'open')))
    .orderBy(asc(escrowRelays.id));
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

/** How many bets a relay carries and what they return in all. */
export async function relayTotals(db: DbOrTx, relayId: number): Promise<{ count: number; wei: bigint }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      wei: sql`coalesce(sum(${oracleBets.payoutAmount}), 0)`.mapWith(BigInt),
    })
    .from(escrowRelayStakes)
    .innerJoin(oracleBets, eq(oracleBets.id, escrowRelayStakes.oracleBetId))
    .where(eq(escrowRelayStakes.relayId, relayId));
  return { count: Number(row?.count ?? 0), wei: row?.wei ?? 0n };
}

/**
 * An owner's round bets the escrow pays now: a stake there, a return not paid, in no open relay, of a
 * round whose settlement is final with its payouts (or refunds) open at `now`. With each its
 * market, refund flag and (a winner) its leaf. Optionally only these bets (the re-check before a relay).
 */
export async function listEscrowClaimable(
  db: DbOrTx,
  owner: string,
  now: Date,
  options: { betIds?: number[]; limit: number },
) {
  return db
    .select({
      betId: oracleBets.id,
      stakeId: oracleBets.stakeId,
      owner: oracleBets.userAddress,
      amount: oracleBets.amount,
      payoutAmount: oracleBets.payoutAmount,
      marketKey: payoutLists.marketKey,
      refund: payoutLists.refund,
      settledBlock: payoutLists.settledBlock,
      leafPayout: payoutListLeaves.payout,
      proof: payoutListLeaves.proof,
    })
    .from(oracleBets)
    .innerJoin(payoutLists, eq(payoutLists.epoch, oracleBets.epoch))
    .leftJoin(payoutListLeaves, eq(payoutListLeaves.stakeId, oracleBets.stakeId))
    .where(
      and(
        eq(oracleBets.userAddress, owner),
        claimableRoundBet,
        isNotNull(oracleBets.stakeId),
        eq(payoutLists.status, 'settled'),
        // A refunded round refunds from its settlement on; a winner's payout opens at claimableAt.
        or(eq(payoutLists.refund, true), lte(payoutLists.claimableAt, now)),
        options.betIds ? inArray(oracleBets.id, options.betIds.length ? options.betIds : [-1]) : undefined,
        sql`not exists (select 1 from ${escrowRelayStakes} s join ${escrowRelays} r on r.id = s.relay_id
              where s.stake_id = ${oracleBets.stakeId} and r.status = 'open')`,
      ),
    )
    .orderBy(asc(oracleBets.id))
    .limit(options.limit);
}

/** The earliest time an owner's round bets on the escrow not claimable yet become so (null: none waits). */
export async function nextEscrowClaimableAt(db: DbOrTx, owner: string, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({
      at: sql<Date | null>`min(${payoutLists.claimableAt})`.mapWith((value) =>
        value ? new Date(value) : null,
      ),
    })
    .from(oracleBets)
    .innerJoin(payoutLists, eq(payoutLists.epoch, oracleBets.epoch))
    .where(
      and(
        eq(oracleBets.userAddress, owner),
        claimableRoundBet,
        isNotNull(oracleBets.stakeId),
        eq(payoutLists.status, 'settled'),
        eq(payoutLists.refund, false),
        sql`${payoutLists.claimableAt} > ${now}`,
      ),
    );
  return row?.at ?? null;
}

/** Whether the owner has round bets on the escrow whose settlement is not final yet. */
export async function countEscrowBetsAwaitingSettlement(db: DbOrTx, owner: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(oracleBets)
    .leftJoin(payoutLists, eq(payoutLists.epoch, oracleBets.epoch))
    .where(
      and(
        eq(oracleBets.userAddress, owner),
        claimableRoundBet,
        isNotNull(oracleBets.stakeId),
        sql`(${payoutLists.status} is null or ${payoutLists.status} <> 'settled')`,
      ),
    );
  return Number(row?.count ?? 0);
}

/** A new relay of these bets' stakes, carried by operator action `operatorTxId`. */
export async function insertRelay(
  tx: DbOrTx,
  input: {
    kind: 'claim' | 'refund';
    owner: string;
    operatorTxId: number;
    stakes: { stakeId: bigint; oracleBetId: number }[];
  },
): Promise<EscrowRelayRow> {
  const [relay] = await tx
    .insert(escrowRelays)
    .values({ kind: input.kind, owner: input.owner, operatorTxId: input.operatorTxId })
    .returning();
  if (!relay) throw new Error('inserting the relay returned nothing');
  await tx.insert(escrowRelayStakes).values(input.stakes.map((stake) => ({ relayId: relay.id, ...stake })));
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
  await tx
    .update(oracleBets)
    .set({ claimed: true })
    .where(
      and(
        inArray(
          oracleBets.stakeId,
          paid.map((stake) => stake.stakeId),
        ),
        eq(oracleBets.claimed, false),
        isNull(oracleBets.payoutId),
      ),
    );
  return rows.map((row) => row.stakeId);
}

/** What left the escrow for these stakes, as recorded. */
export async function listStakePayouts(db: DbOrTx, stakeIds: bigint[]) {
  if (stakeIds.length === 0) return [];
  return db.select().from(escrowStakePayouts).where(inArray(escrowStakePayouts.stakeId, stakeIds));
}
