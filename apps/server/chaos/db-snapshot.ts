import pg from 'pg';
import { z } from 'zod';

// The server's database read directly (not through the fault proxy), table by table, parsed:
// what the server believes, to be held against what the chain says.

const wei = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));
const weiOrNull = wei.nullable();
const date = z.coerce.date();

const PaymentSchema = z.object({
  id: z.number(),
  tx_hash: z.string(),
  from_address: z.string(),
  amount: wei,
  intent: z.string(),
  purpose: z.string(),
  status: z.string(),
  refund_reason: z.string().nullable(),
  refund_payout_id: z.number().nullable(),
});
const BetSchema = z.object({
  id: z.number(),
  market_id: z.number(),
  user_address: z.string(),
  prediction: z.string(),
  amount: wei,
  payout_amount: weiOrNull,
  status: z.string(),
  payment_id: z.number(),
  payout_id: z.number().nullable(),
});
/** A round a bet can name: its epoch and its lock in unix seconds. */
export type BettableRound = { epoch: number; lockTime: number };
const RoundLockSchema = z.object({ epoch: z.coerce.number(), lock_s: z.coerce.number() });

const OracleBetSchema = z.object({
  id: z.number(),
  epoch: z.coerce.number(),
  user_address: z.string(),
  position: z.string(),
  amount: wei,
  payout_amount: weiOrNull,
  claimed: z.boolean(),
  payment_id: z.number(),
  payout_id: z.number().nullable(),
});
const PayoutSchema = z.object({
  id: z.number(),
  to_address: z.string(),
  amount: wei,
  nonce: z.coerce.number(),
  kind: z.string(),
  status: z.string(),
  tx_hash: z.string().nullable(),
  tx_hashes: z.array(z.string()),
  attempts: z.number(),
  last_error: z.string().nullable(),
  created_at: date,
});
const MarketSchema = z.object({
  id: z.number(),
  status: z.string(),
  result: z.string().nullable(),
  deadline: date,
});
const RoundSchema = z.object({
  epoch: z.coerce.number(),
  status: z.string(),
  result: z.string().nullable(),
  close_time: date,
});
const RequestSchema = z.object({
  id: z.number(),
  tx_hash: z.string(),
  attempts: z.number(),
  last_error: z.string().nullable(),
  resolved_at: date.nullable(),
  created_at: date,
});
const CursorSchema = z.object({ name: z.string(), block_number: z.coerce.bigint() });

type PaymentRow = z.infer<typeof PaymentSchema>;
export type BetRow = z.infer<typeof BetSchema>;
export type OracleBetRow = z.infer<typeof OracleBetSchema>;
export type PayoutRow = z.infer<typeof PayoutSchema>;
type MarketRow = z.infer<typeof MarketSchema>;
type RoundRow = z.infer<typeof RoundSchema>;
type RequestRow = z.infer<typeof RequestSchema>;

export type DbSnapshot = {
  payments: PaymentRow[];
  bets: BetRow[];
  oracleBets: OracleBetRow[];
  payouts: PayoutRow[];
  markets: MarketRow[];
  rounds: RoundRow[];
  requests: RequestRow[];
  reconcileCursor: bigint | null;
  /** The database's own clock, for ages of rows stamped with now(). */
  dbNow: Date;
};

export function createDbReader(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  // NUMERIC and BIGINT come back as strings: exact, parsed to bigint by the schemas above.
  const rows = async <T>(schema: z.ZodType<T>, text: string): Promise<T[]> => {
    const result = await pool.query(text);
    return z.array(schema).parse(result.rows);
  };
  return {
    async snapshot(): Promise<DbSnapshot> {
      const [now] = await rows(z.object({ now: date }), 'select now() as now');
      const [cursor] = await rows(CursorSchema, "select * from chain_cursors where name = 'vault-reconcile'");
      return {
        payments: await rows(PaymentSchema, 'select * from payments order by id'),
        bets: await rows(BetSchema, 'select * from bets order by id'),
        oracleBets: await rows(OracleBetSchema, 'select * from oracle_bets order by id'),
        payouts: await rows(PayoutSchema, 'select * from payouts order by id'),
        markets: await rows(MarketSchema, 'select id, status, result, deadline from markets order by id'),
        rounds: await rows(RoundSchema, 'select epoch, status, result, close_time from oracle_rounds'),
        requests: await rows(RequestSchema, 'select * from payment_requests order by id'),
        reconcileCursor: cursor?.block_number ?? null,
        dbNow: now?.now ?? new Date(),
      };
    },
    /**
     * The live round whose lock is at least `marginS` of chain time away, if any, with its lock in unix
     * seconds (with the epoch, the round's escrow key: decision 026).
     */
    async liveEpoch(chainNowS: number, marginS: number): Promise<BettableRound | null> {
      const [row] = await rows(
        RoundLockSchema,
        `select epoch, extract(epoch from lock_time)::bigint as lock_s from oracle_rounds where status = 'live' and lock_time > to_timestamp(${Math.floor(chainNowS) + marginS}) order by epoch limit 1`,
      );
      return row ? { epoch: row.epoch, lockTime: row.lock_s } : null;
    },
    /** The next round to open, for a bet placed too early (it is refused and refunded). */
    async upcomingEpoch(): Promise<BettableRound | null> {
      const [row] = await rows(
        RoundLockSchema,
        "select epoch, extract(epoch from lock_time)::bigint as lock_s from oracle_rounds where status in ('live', 'upcoming') order by epoch limit 1",
      );
      return row ? { epoch: row.epoch, lockTime: row.lock_s } : null;
    },
    /** Markets still taking bets for at least a minute of chain time. */
    async activeMarketIds(chainNowS: number): Promise<number[]> {
      const list = await rows(
        z.object({ id: z.number() }),
        `select id from markets where status = 'active' and deadline > to_timestamp(${Math.floor(chainNowS) + 60}) order by id desc limit 10`,
      );
      return list.map((row) => row.id);
    },
    async close() {
      await pool.end();
    },
  };
}

export type DbReader = ReturnType<typeof createDbReader>;
