import { and, asc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client.ts';
import { type OperatorTxStatus, operatorTransactions } from '../db/schema.ts';

// Every read and write of the operator key's transactions (docs/architecture.md "Operator
// transactions"). Each function takes the pool or the caller's transaction. Writes that move an
// action name the state they expect (status, current hash): two instances never both apply a step.

export type OperatorTxRow = typeof operatorTransactions.$inferSelect;
export type NewOperatorTx = Pick<
  typeof operatorTransactions.$inferInsert,
  'key' | 'chainId' | 'sender' | 'toAddress' | 'data' | 'value' | 'gasCap' | 'signAtCap'
>;

/** An action that may still send or mine a transaction. */
export const OPEN_OPERATOR_TX_STATUSES: OperatorTxStatus[] = ['queued', 'signed', 'sent'];

/** Serialises nonce assignment per (chain, sender) lane across every instance (transaction-scoped). */
const LANE_LOCK = 8173010;

/** The new action, or undefined when its key is taken (the caller reads the existing row). */
export async function insertOperatorTx(
  db: DbOrTx,
  values: NewOperatorTx,
): Promise<OperatorTxRow | undefined> {
  const [row] = await db
    .insert(operatorTransactions)
    .values(values)
    .onConflictDoNothing({ target: operatorTransactions.key })
    .returning();
  return row;
}

export async function findOperatorTxByKey(db: DbOrTx, key: string): Promise<OperatorTxRow | undefined> {
  const [row] = await db.select().from(operatorTransactions).where(eq(operatorTransactions.key, key));
  return row;
}

export async function findOperatorTx(db: DbOrTx, id: number): Promise<OperatorTxRow | undefined> {
  const [row] = await db.select().from(operatorTransactions).where(eq(operatorTransactions.id, id));
  return row;
}

/** The action, locked (`FOR UPDATE`) for the caller's transaction. */
export async function lockOperatorTx(tx: Tx, id: number): Promise<OperatorTxRow | undefined> {
  const [row] = await tx
    .select()
    .from(operatorTransactions)
    .where(eq(operatorTransactions.id, id))
    .for('update');
  return row;
}

/**
 * The lane's open actions in the order a step takes them: those holding a nonce by nonce (a later
 * nonce cannot mine before an earlier one), then queued ones oldest first.
 */
export async function listOpenOperatorTxIds(db: DbOrTx, chainId: number, sender: string): Promise<number[]> {
  const rows = await db
    .select({ id: operatorTransactions.id })
    .from(operatorTransactions)
    .where(
      and(
        eq(operatorTransactions.chainId, chainId),
        eq(operatorTransactions.sender, sender),
        inArray(operatorTransactions.status, OPEN_OPERATOR_TX_STATUSES),
      ),
    )
    .orderBy(sql`${operatorTransactions.nonce} asc nulls last`, asc(operatorTransactions.id));
  return rows.map((row) => row.id);
}

/** The lane's open actions by status, for the gap check (queued ones, and the nonces sent ones hold). */
export async function listOpenOperatorTxs(db: DbOrTx, chainId: number, sender: string) {
  return db
    .select({
      id: operatorTransactions.id,
      status: operatorTransactions.status,
      nonce: operatorTransactions.nonce,
    })
    .from(operatorTransactions)
    .where(
      and(
        eq(operatorTransactions.chainId, chainId),
        eq(operatorTransactions.sender, sender),
        inArray(operatorTransactions.status, OPEN_OPERATOR_TX_STATUSES),
      ),
    );
}

/** Takes the lane's nonce lock for this transaction: one nonce assignment at a time per key. */
export async function lockLane(tx: Tx, chainId: number, sender: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LANE_LOCK}, hashtext(${`${chainId}:${sender}`}))`);
}

/** Every nonce the lane's rows hold at or above `from`, ascending (open and done alike). */
export async function listHeldNonces(
  db: DbOrTx,
  chainId: number,
  sender: string,
  from: bigint,
): Promise<bigint[]> {
  const rows = await db
    .select({ nonce: operatorTransactions.nonce })
    .from(operatorTransactions)
    .where(
      and(
        eq(operatorTransactions.chainId, chainId),
        eq(operatorTransactions.sender, sender),
        isNotNull(operatorTransactions.nonce),
        gte(operatorTransactions.nonce, from),
      ),
    );
  const held = rows.flatMap((row) => (row.nonce === null ? [] : [row.nonce]));
  return [...new Set(held)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What a step expects of the row it moves: its status and, once signed, its current hash. */
export type Expected = { status: OperatorTxStatus[]; txHash?: string | null };

type Changes = Partial<Omit<typeof operatorTransactions.$inferInsert, 'id' | 'key' | 'createdAt'>>;

/**
 * Applies `changes` if the row is still as the step saw it; undefined when another instance (or
 * an earlier step) moved it meanwhile. `attempts` is counted by `countAttempt`.
 */
export async function updateOperatorTx(
  db: DbOrTx,
  id: number,
  expected: Expected,
  changes: Changes & { countAttempt?: boolean },
): Promise<OperatorTxRow | undefined> {
  const { countAttempt, ...values } = changes;
  const conditions = [eq(operatorTransactions.id, id), inArray(operatorTransactions.status, expected.status)];
  if (expected.txHash !== undefined) {
    conditions.push(
      expected.txHash === null
        ? sql`${operatorTransactions.txHash} is null`
        : eq(operatorTransactions.txHash, expected.txHash),
    );
  }
  const [row] = await db
    .update(operatorTransactions)
    .set({
      ...values,
      ...(values.lastError ? { lastError: values.lastError.slice(0, 500) } : {}),
      ...(countAttempt ? { attempts: sql`${operatorTransactions.attempts} + 1` } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(...conditions))
    .returning();
  return row;
}

/**
 * The open actions (queued, signed, sent) counted by status, all lanes together, and the age of the
 * oldest one in seconds (null when none is open): the metrics' gauges. Reads only the open rows
 * (operator_transactions_open_idx's predicate), however many are done.
 */
export async function readOpenOperatorWork(
  db: DbOrTx,
): Promise<{ openByStatus: Map<OperatorTxStatus, number>; oldestOpenAgeS: number | null }> {
  const rows = await db
    .select({
      status: operatorTransactions.status,
      count: sql<number>`count(*)::int`,
      ageS: sql<number | null>`extract(epoch from now() - min(${operatorTransactions.createdAt}))::float8`,
    })
    .from(operatorTransactions)
    // A literal, the partial index's own predicate, so the planner reads only the open rows.
    .where(sql`${operatorTransactions.status} in ('queued', 'signed', 'sent')`)
    .groupBy(operatorTransactions.status);
  const openByStatus = new Map<OperatorTxStatus, number>(
    OPEN_OPERATOR_TX_STATUSES.map((status) => [status, 0]),
  );
  let oldestOpenAgeS: number | null = null;
  for (const row of rows) {
    openByStatus.set(row.status as OperatorTxStatus, Number(row.count));
    const age = row.ageS === null ? null : Number(row.ageS);
    if (age !== null && (oldestOpenAgeS === null || age > oldestOpenAgeS)) oldestOpenAgeS = Math.max(0, age);
  }
  return { openByStatus, oldestOpenAgeS };
}
