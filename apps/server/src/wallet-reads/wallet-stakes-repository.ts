import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { preparedRows } from '../db/prepared-rows.ts';

/** The markets and rounds a wallet holds stakes in: a change to one of them changes its reads. */
export type WalletStakes = { markets: number[]; rounds: number[] };

const StakesRowSchema = z.object({
  markets: z.array(z.coerce.number()),
  rounds: z.array(z.coerce.number()),
});

/**
 * Every market a wallet bet in or flagged (a flag's bond shows its market) and every round it bet
 * in, `address` lower-case: each a range of the wallet's own index, a named statement
 * (docs/decisions/022). Read beside a wallet's first cached read (docs/decisions/032).
 */
export async function readWalletStakes(db: DbOrTx, address: string): Promise<WalletStakes> {
  const [row] = await preparedRows(
    db,
    sql`select array(select market_id from bets where user_address = ${address}
                     union select market_id from market_flags where address = ${address}) as markets,
               array(select distinct epoch from oracle_bets where user_address = ${address}) as rounds`,
    StakesRowSchema,
  );
  return row ?? { markets: [], rounds: [] };
}
