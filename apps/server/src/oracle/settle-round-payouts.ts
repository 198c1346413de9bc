import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { execute } from '../db/query-rows.ts';
import type { StoredRoundResult } from './oracle-rounds.ts';

/**
 * Writes every bet's payout_amount for an ended round in one statement (docs/architecture.md "Oracle rounds"),
 * the same maths as @pm/core/payouts computeRoundPayouts:
 * - bull/bear with bets on the winning side: fee = ⌊pool × feeBps / 10000⌋ is taken first, each
 *   winner gets ⌊stake × (pool − fee) / winningPool⌋ (stake included), each loser 0;
 * - draw, cancelled, or nobody on the winning side: every stake comes back as it was.
 * `div` is exact integer division on NUMERIC (a plain `/` would round at a limited scale).
 * Run in the transaction that ends the round; rows already paid out are left alone.
 */
export async function settleRoundPayouts(
  tx: DbOrTx,
  input: { epoch: number; result: StoredRoundResult; feeBps: number },
): Promise<number> {
  const refundAll = input.result === 'draw' || input.result === 'cancelled';
  const winningSide = refundAll ? null : input.result;
  return execute(
    tx,
    sql`with totals as (
          select coalesce(sum(amount), 0) as pool,
                 coalesce(sum(amount) filter (where position = ${winningSide}), 0) as winning
          from oracle_bets where epoch = ${input.epoch}
        )
        update oracle_bets b set payout_amount = case
            when ${refundAll} or t.winning = 0 then b.amount
            when b.position = ${winningSide}
              then div(b.amount * (t.pool - div(t.pool * ${input.feeBps}, 10000)), t.winning)
            else 0
          end
        from totals t
        where b.epoch = ${input.epoch} and b.payout_id is null and b.claimed = false`,
  );
}
