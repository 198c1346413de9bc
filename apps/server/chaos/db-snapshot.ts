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
  /** An escrow deposit's stake (decision 026). */
  stake_id: weiOrNull,
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
  /** Its stake on the escrow (migration 0018). */
  stake_id: weiOrNull,
});
/** A flag's bond: on the escrow a dispute deposit, its stake named (migration 0018). */
const FlagSchema = z.object({
  id: z.number(),
  market_id: z.number(),
  address: z.string(),
  bond_payment_id: z.number().nullable(),
  bond_amount: weiOrNull,
  bond_status: z.string().nullable(),
  bond_return_amount: weiOrNull,
  stake_id: weiOrNull,
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
  /** Its stake on the escrow. */
  stake_id: weiOrNull,
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

// The escrow's side (decision 026): refused deposits given back, settlements, relays, what left it.
const EscrowRefundSchema = z.object({
  id: z.number(),
  stake_id: wei,
  payment_id: z.number(),
  tx_hash: z.string(),
  owner: z.string(),
  amount: wei,
  market_key: z.string(),
  reason: z.string(),
  status: z.string(),
  last_error: z.string().nullable(),
  created_at: date,
});
const EscrowDepositSchema = z.object({
  id: z.number(),
  stake_id: wei,
  tx_hash: z.string(),
  outcome: z.string().nullable(),
  last_error: z.string().nullable(),
  resolved_at: date.nullable(),
  created_at: date,
});
const PayoutListSchema = z.object({
  id: z.number(),
  market_key: z.string(),
  epoch: z.coerce.number().nullable(),
  prediction_market_id: z.number().nullable(),
  refund: z.boolean(),
  status: z.string(),
  payout_total: weiOrNull,
  fee: weiOrNull,
  pool: weiOrNull,
  operator_tx_id: z.number().nullable(),
  attempts: z.number(),
  last_error: z.string().nullable(),
  claimable_at: date.nullable(),
  created_at: date,
});
const LeafSchema = z.object({ stake_id: wei, market_key: z.string(), payout: wei });
const RelaySchema = z.object({
  id: z.number(),
  kind: z.string(),
  owner: z.string(),
  operator_tx_id: z.number(),
  status: z.string(),
  last_error: z.string().nullable(),
  created_at: date,
});
/** A relayed stake: a round bet, a market bet or a flag's bond (exactly one, migration 0018). */
const RelayStakeSchema = z.object({
  relay_id: z.number(),
  stake_id: wei,
  oracle_bet_id: z.number().nullable(),
  bet_id: z.number().nullable(),
  flag_id: z.number().nullable(),
});
const StakePayoutSchema = z.object({
  stake_id: wei,
  market_key: z.string(),
  owner: z.string(),
  kind: z.string(),
  amount: wei,
  credited: z.boolean(),
  tx_hash: z.string(),
  relay_id: z.number().nullable(),
});
const OperatorTxSchema = z.object({
  id: z.number(),
  key: z.string(),
  status: z.string(),
  tx_hash: z.string().nullable(),
  tx_hashes: z.array(z.string()),
  last_error: z.string().nullable(),
  created_at: date,
});

type PaymentRow = z.infer<typeof PaymentSchema>;
export type BetRow = z.infer<typeof BetSchema>;
export type OracleBetRow = z.infer<typeof OracleBetSchema>;
export type FlagRow = z.infer<typeof FlagSchema>;
type MarketRow = z.infer<typeof MarketSchema>;
type RoundRow = z.infer<typeof RoundSchema>;
type RequestRow = z.infer<typeof RequestSchema>;
export type EscrowRefundRow = z.infer<typeof EscrowRefundSchema>;
export type PayoutListRow = z.infer<typeof PayoutListSchema>;
export type StakePayoutRow = z.infer<typeof StakePayoutSchema>;

export type DbSnapshot = {
  payments: PaymentRow[];
  bets: BetRow[];
  oracleBets: OracleBetRow[];
  flags: FlagRow[];
  markets: MarketRow[];
  rounds: RoundRow[];
  requests: RequestRow[];
  /** The watcher of the escrow's payouts (chain_cursors 'escrow-stake-payouts'). */
  payoutsCursor: bigint | null;
  /** The escrow's deposit scan (chain_cursors 'escrow-deposits'). */
  escrowCursor: bigint | null;
  escrowRefunds: EscrowRefundRow[];
  escrowDeposits: z.infer<typeof EscrowDepositSchema>[];
  payoutLists: PayoutListRow[];
  payoutListLeaves: z.infer<typeof LeafSchema>[];
  relays: z.infer<typeof RelaySchema>[];
  relayStakes: z.infer<typeof RelayStakeSchema>[];
  stakePayouts: StakePayoutRow[];
  operatorTxs: z.infer<typeof OperatorTxSchema>[];
  /** The database's own clock, for ages of rows stamped with now(). */
  dbNow: Date;
};

/** A market a bet can deposit into: its id, escrow id and close (unix seconds). */
export type BettableMarket = { marketId: number; escrowId: `0x${string}`; closesAt: number };

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
      const [cursor] = await rows(
        CursorSchema,
        "select * from chain_cursors where name = 'escrow-stake-payouts'",
      );
      const [escrowCursor] = await rows(
        CursorSchema,
        "select * from chain_cursors where name = 'escrow-deposits'",
      );
      return {
        payments: await rows(PaymentSchema, 'select * from payments order by id'),
        bets: await rows(BetSchema, 'select * from bets order by id'),
        oracleBets: await rows(OracleBetSchema, 'select * from oracle_bets order by id'),
        flags: await rows(FlagSchema, 'select * from market_flags order by id'),
        markets: await rows(MarketSchema, 'select id, status, result, deadline from markets order by id'),
        rounds: await rows(RoundSchema, 'select epoch, status, result, close_time from oracle_rounds'),
        requests: await rows(RequestSchema, 'select * from payment_requests order by id'),
        payoutsCursor: cursor?.block_number ?? null,
        escrowCursor: escrowCursor?.block_number ?? null,
        escrowRefunds: await rows(EscrowRefundSchema, 'select * from escrow_refunds order by id'),
        escrowDeposits: await rows(EscrowDepositSchema, 'select * from escrow_deposits order by id'),
        payoutLists: await rows(PayoutListSchema, 'select * from payout_lists order by id'),
        payoutListLeaves: await rows(LeafSchema, 'select * from payout_list_leaves'),
        relays: await rows(RelaySchema, 'select * from escrow_relays order by id'),
        relayStakes: await rows(RelayStakeSchema, 'select * from escrow_relay_stakes'),
        stakePayouts: await rows(StakePayoutSchema, 'select * from escrow_stake_payouts'),
        operatorTxs: await rows(
          OperatorTxSchema,
          'select id, key, status, tx_hash, tx_hashes, last_error, created_at from operator_transactions order by id',
        ),
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
    /**
     * Markets still taking bets for at least a minute of chain time, with their escrow id and close (a
     * bet's deposit names them: decision 026).
     */
    async activeMarkets(chainNowS: number): Promise<BettableMarket[]> {
      const list = await rows(
        z.object({ id: z.number(), escrow_id: z.string(), close_s: z.coerce.number() }),
        `select id, escrow_id, extract(epoch from deadline)::bigint as close_s from markets where status = 'active' and escrow_id is not null and deadline > to_timestamp(${Math.floor(chainNowS) + 60}) order by id desc limit 10`,
      );
      return list.map((row) => ({
        marketId: row.id,
        escrowId: row.escrow_id as `0x${string}`,
        closesAt: row.close_s,
      }));
    },
    async close() {
      await pool.end();
    },
  };
}

export type DbReader = ReturnType<typeof createDbReader>;
