import type { DbOrTx } from '../db/client.ts';
import type { OperatorActionInput } from './operator-action.ts';
import { OperatorActionSchema } from './operator-action.ts';
import { type OperatorSenderDeps, senderOf } from './operator-sender-deps.ts';
import {
  findOperatorTxByKey,
  insertOperatorTx,
  type OperatorTxRow,
} from './operator-transactions-repository.ts';

/** A submitted action that cannot be taken: what is wrong with it, and nothing was stored. */
export class OperatorActionError extends Error {
  override name = 'OperatorActionError';
}

/** What submitting needs: the lane (chain, key) and where to store; `db` may be the caller's transaction. */
export type SubmitDeps = Pick<OperatorSenderDeps, 'chainId' | 'account' | 'metrics' | 'log'> & { db: DbOrTx };

/**
 * Stores an action for the operator key before anything is sent; the job sends it. Idempotent by
 * key: the same key answers the row it already has (whatever state it is in), never a second
 * transaction. The same key naming another call is refused: one of the two callers is wrong.
 * Given a transaction as `db`, the action is stored with the caller's own writes, or not at all.
 */
export async function submitOperatorAction(
  deps: SubmitDeps,
  input: OperatorActionInput,
): Promise<OperatorTxRow> {
  const parsed = OperatorActionSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'action'}: ${issue.message}`,
    );
    throw new OperatorActionError(`Invalid operator action: ${problems.join('; ')}`);
  }
  const action = parsed.data;
  const values = {
    key: action.key,
    chainId: deps.chainId,
    sender: senderOf(deps),
    toAddress: action.to,
    data: action.data,
    value: action.value,
    gasCap: action.gasCap,
    signAtCap: action.signAtCap,
  };
  const inserted = await insertOperatorTx(deps.db, values);
  if (inserted) {
    deps.metrics?.countOperatorTransaction('queued');
    deps.log?.info(
      { operatorTxId: inserted.id, key: inserted.key, to: inserted.toAddress },
      'operator action queued',
    );
    return inserted;
  }
  const existing = await findOperatorTxByKey(deps.db, action.key);
  if (!existing) throw new Error(`operator action ${action.key} vanished`);
  const same =
    existing.chainId === values.chainId &&
    existing.sender === values.sender &&
    existing.toAddress === values.toAddress &&
    existing.data === values.data &&
    existing.value === values.value &&
    existing.gasCap === values.gasCap &&
    existing.signAtCap === values.signAtCap;
  if (!same)
    throw new OperatorActionError(
      `Operator action ${action.key} was submitted before with another call or sender`,
    );
  return existing;
}
