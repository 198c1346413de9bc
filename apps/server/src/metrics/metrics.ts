import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

// docs/operations.md "Metrics": what the server tells Prometheus, in its naming conventions
// (base units, `_total` counters, our own under `bnbpredict_`). Each app has its own Registry, not
// prom-client's global one, so several apps in one process (tests) never collide. Labels take only
// values from small fixed sets (route templates, job names, error codes, states): never an address,
// a transaction hash or a raw URL, whose every new value would be a new time series.

/** Where a payment ended: recorded, waiting for finality (202), or refused with this error code. */
export type PaymentOutcome = 'accepted' | 'pending' | (string & {});
/** An escrow deposit's kind as reconciliation reads it: its code, or invalid (terms the app never sends). */
export type EscrowDepositKind = 'round' | 'create' | 'bet' | 'flag' | 'invalid';
/** What reconciliation made of a deposit nobody posted: a bet, refused (given back), or left. */
export type EscrowDepositOutcome = 'recorded' | 'refused' | 'left';

export type ResolutionVerdict = 'YES' | 'NO' | 'VOID';
/** The operator key's open actions and the escrow's pending settlements, as a scrape reads them. */
export type OperatorWork = {
  openByStatus: ReadonlyMap<string, number>;
  /** Seconds since the oldest open action was queued; null when none is open. */
  oldestOpenAgeS: number | null;
  /** Seconds since the oldest settlement not final on chain was due; null when none waits. */
  oldestPendingSettlementAgeS: number | null;
};
/** The statuses an operator transaction moves into (docs/architecture.md "Operator transactions"). */
export type OperatorTxState = 'queued' | 'signed' | 'sent' | 'confirmed' | 'skipped' | 'failed';
/** Why a node refused an operator broadcast; `unknown` refusals release their nonce. */
export type OperatorRefusal = 'nonce-too-low' | 'nonce-too-high' | 'fee' | 'funds' | 'transient' | 'unknown';
/** A transaction signed again at its nonce: higher fees, or a 0-value self-transfer instead. */
export type OperatorReplacement = 'fee' | 'cancel';

/** What waits for a price feed it cannot ask: an oracle round, a price market. */
export type FeedWaitKind = 'oracle_round' | 'price_market';

/** Each coin's latest price time (the feed's own update time), or null when it has none yet. */
export type PriceTimesSource = () => Promise<ReadonlyMap<string, Date | null>>;

/** Counts requests per route template; anything without one (404s, the web app's pages) is this. */
export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds; payment verification may wait up to PAYMENT_WAIT_MS (15 s) for finality. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];

/**
 * The one place wei becomes a float: a gauge's value for Prometheus, which stores float64 (exact up
 * to 2^53 wei, about 0.009 BNB). Reporting only; nothing reads it back or decides with it.
 */
export function weiAsGaugeValue(wei: bigint): number {
  return Number(wei);
}

export function createMetrics(options: { now?: () => Date } = {}) {
  const now = options.now ?? (() => new Date());
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests answered by the API, by route template, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const jobRuns = new Counter({
    name: 'bnbpredict_job_runs_total',
    help: 'Background job runs on this instance (counted as each ends), by job.',
    labelNames: ['job'] as const,
    registers,
  });
  const jobFailures = new Counter({
    name: 'bnbpredict_job_failures_total',
    help: 'Background job runs that ended in an error, by job.',
    labelNames: ['job'] as const,
    registers,
  });
  const payments = new Counter({
    name: 'bnbpredict_payments_total',
    help: 'Payments decided on this instance: accepted, pending (not final yet), or the refusal code.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const escrowDeposits = new Counter({
    name: 'bnbpredict_escrow_deposits_total',
    help: 'Escrow deposits nobody posted, settled by reconciliation on this instance: by kind (round, create, bet, flag, invalid) and outcome (recorded, refused, left for their own path).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const operatorTransactions = new Counter({
    name: 'bnbpredict_operator_transactions_total',
    help: 'Operator transaction state transitions made on this instance, by the state entered.',
    labelNames: ['state'] as const,
    registers,
  });
  const operatorRefusals = new Counter({
    name: 'bnbpredict_operator_broadcasts_refused_total',
    help: 'Broadcasts of operator transactions a node refused, by reason (unknown ones release their nonce).',
    labelNames: ['reason'] as const,
    registers,
  });
  const operatorReleasedNonces = new Counter({
    name: 'bnbpredict_operator_nonces_released_total',
    help: 'Nonces of the operator key given back after a broadcast refused for a reason not known.',
    registers,
  });
  const operatorReplacements = new Counter({
    name: 'bnbpredict_operator_replacements_total',
    help: 'Operator transactions signed again at their nonce: with higher fees, or cancelled.',
    labelNames: ['kind'] as const,
    registers,
  });
  const escrowScanLag = new Gauge({
    name: 'bnbpredict_escrow_scan_lag_blocks',
    help: "Final blocks not yet read by an escrow scan at its last run on this instance (deposits: reconciliation; stake-payouts: the wallet claims' watcher; market-fates: the vetoes' and escapes' watcher).",
    labelNames: ['scan'] as const,
    registers,
  });
  const marketFates = new Counter({
    name: 'bnbpredict_escrow_market_fates_total',
    help: 'Vetoed and Escaped events of the escrow followed on this instance, by fate (vetoed, escaped) and outcome (applied: the market or round shows refunded; unknown: no market of this server).',
    labelNames: ['fate', 'outcome'] as const,
    registers,
  });
  // Every series exists from the start at 0, so an alert on increase() sees the first one.
  for (const fate of ['vetoed', 'escaped'] as const) {
    for (const outcome of ['applied', 'unknown'] as const) marketFates.inc({ fate, outcome }, 0);
  }
  const settlementWaits = new Counter({
    name: 'bnbpredict_escrow_settlement_waits_total',
    help: "Steps at which a due settlement waited instead of being posted, by reason (pool_mismatch: the escrow holds another amount than the server's records).",
    labelNames: ['reason'] as const,
    registers,
  });
  const settlementsOverdue = new Counter({
    name: 'bnbpredict_escrow_settlements_overdue_total',
    help: 'Settlements not final on the escrow past their expected time, counted once each (by the instance that saw it first), by stage: unsent (not posted yet) or unconfirmed (its transaction not final).',
    labelNames: ['stage'] as const,
    registers,
  });
  const settlementFailures = new Counter({
    name: 'bnbpredict_escrow_settlement_failures_total',
    help: 'Settlement steps that could not send a settlement, by reason: action_failed (its transaction failed: reverted, refused, or gas above its cap; built again later) or step_failed (it could not be built or queued).',
    labelNames: ['reason'] as const,
    registers,
  });
  // Every series exists from the start at 0, so an alert on increase() sees the first one.
  for (const stage of ['unsent', 'unconfirmed'] as const) settlementsOverdue.inc({ stage }, 0);
  for (const reason of ['action_failed', 'step_failed'] as const) settlementFailures.inc({ reason }, 0);
  const resolutions = new Counter({
    name: 'bnbpredict_resolutions_total',
    help: 'Markets settled on this instance, by verdict.',
    labelNames: ['verdict'] as const,
    registers,
  });
  // Wei as float64: exact up to 2^53 wei (about 0.009 BNB), then within 1 part in 9e15.
  const operatorBalance = new Gauge({
    name: 'bnbpredict_operator_balance_wei',
    help: "The operator key's balance at the last solvency check: gas money only, never bettors' (float64: not exact above 2^53 wei).",
    registers,
  });
  // The escrow contract (ESCROW_ADDRESS), read at one block by the escrow-watch job.
  const escrowBalance = new Gauge({
    name: 'bnbpredict_escrow_balance_wei',
    help: "The escrow contract's balance at its last read, in wei (float64: not exact above 2^53 wei).",
    registers,
  });
  const escrowLiabilities = new Gauge({
    name: 'bnbpredict_escrow_liabilities_wei',
    help: 'Everything the escrow contract owes (its liabilities()) at its last read, in wei (float64: not exact above 2^53 wei).',
    registers,
  });
  const escrowSettlementAllowance = new Gauge({
    name: 'bnbpredict_escrow_settlement_allowance_wei',
    help: "The escrow's settlement bucket at its last read: payout wei the operator can still settle before it refills (float64).",
    registers,
  });
  const escrowPaused = new Gauge({
    name: 'bnbpredict_escrow_paused',
    help: 'Whether the escrow contract was paused at its last read (1 yes, 0 no): deposits and settlements refused.',
    registers,
  });

  const feedWaiting = new Gauge({
    name: 'bnbpredict_price_feed_waiting',
    help: 'Oracle rounds and price markets whose missed price waits for a feed that could not be asked, at the last run of their job on this instance.',
    labelNames: ['kind'] as const,
    registers,
  });
  const feedUnreachable = new Counter({
    name: 'bnbpredict_price_feed_unreachable_total',
    help: 'Oracle rounds cancelled and price markets voided because their price feed could not be asked for ORACLE_FEED_WAIT_S.',
    labelNames: ['kind'] as const,
    registers,
  });
  // Both series exist from the start at 0, so an alert on increase() sees the first cancellation.
  for (const kind of ['oracle_round', 'price_market'] as const) {
    feedWaiting.set({ kind }, 0);
    feedUnreachable.inc({ kind }, 0);
  }

  const reservesCovered = new Gauge({
    name: 'bnbpredict_reserves_covered',
    help: 'Whether the escrow contract held at least what it owes (liabilities plus fees not yet withdrawn) at the last solvency check, compared exactly in wei at one block (1 yes, 0 no).',
    registers,
  });

  let readPriceTimes: PriceTimesSource | undefined;
  /** The last times read, kept so that the ages still grow while the database cannot be read. */
  const lastPriceTimes = new Map<string, Date | null>();
  new Gauge({
    name: 'bnbpredict_oracle_price_age_seconds',
    help: "Age of each coin's latest sampled price (by the feed's own update time); +Inf when it has none.",
    labelNames: ['symbol'] as const,
    registers,
    async collect() {
      if (readPriceTimes) {
        try {
          for (const [symbol, at] of await readPriceTimes()) lastPriceTimes.set(symbol, at);
        } catch {
          // The database is down: the ages go on from the last times read.
        }
      }
      this.reset();
      const nowMs = now().getTime();
      for (const [symbol, at] of lastPriceTimes) {
        this.set({ symbol }, at ? Math.max(0, (nowMs - at.getTime()) / 1000) : Number.POSITIVE_INFINITY);
      }
    },
  });

  // The operator key's open work and the escrow's pending settlements, read from the database at each
  // scrape (the same on every instance), so an alert sees an action or a settlement that is stuck.
  let readOperatorWork: (() => Promise<OperatorWork>) | undefined;
  let lastOperatorWork: OperatorWork | undefined;
  // One read serves the three gauges of a scrape (they collect one after the other).
  let operatorWorkRead: { atMs: number; work: Promise<OperatorWork | undefined> } | undefined;
  const operatorWork = (): Promise<OperatorWork | undefined> => {
    const source = readOperatorWork;
    if (!source) return Promise.resolve(undefined);
    const nowMs = Date.now();
    if (!operatorWorkRead || nowMs - operatorWorkRead.atMs > 1_000) {
      // Unknown while the database cannot be read: the last values stay.
      const work = source()
        .then((read) => {
          lastOperatorWork = read;
          return read;
        })
        .catch(() => lastOperatorWork);
      operatorWorkRead = { atMs: nowMs, work };
    }
    return operatorWorkRead.work;
  };
  new Gauge({
    name: 'bnbpredict_operator_transactions',
    help: "The operator key's open actions (queued, signed, sent) by status, all instances together.",
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const work = await operatorWork();
      if (!work) return;
      this.reset();
      for (const [status, count] of work.openByStatus) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'bnbpredict_operator_oldest_open_age_seconds',
    help: "Age of the operator key's oldest action not yet confirmed, skipped or failed; 0 when none.",
    registers,
    async collect() {
      const work = await operatorWork();
      if (work) this.set(work.oldestOpenAgeS ?? 0);
    },
  });
  new Gauge({
    name: 'bnbpredict_escrow_settlements_oldest_pending_age_seconds',
    help: "Age of the oldest market or round settlement not final on the escrow yet (one held for an operator's decision on a flag left out); 0 when none.",
    registers,
    async collect() {
      const work = await operatorWork();
      if (work) this.set(work.oldestPendingSettlementAgeS ?? 0);
    },
  });

  const walletReads = new Counter({
    name: 'bnbpredict_wallet_reads_total',
    help: "A wallet's own reads (bets, claimable, history, summary) on this instance, by how the wallet read cache answered: hit, miss, fresh (the client had just written) or deaf (changes not heard: read from the database).",
    labelNames: ['read', 'outcome'] as const,
    registers,
  });
  const walletReadCounters = new Map<string, { inc(): void }>();
  const walletReadDrops = new Counter({
    name: 'bnbpredict_wallet_read_drops_total',
    help: "Wallets whose kept reads were dropped on this instance, by cause: change (the database announced one), write (this instance answered the wallet's write) or resync (everything, after the changes may have been missed).",
    labelNames: ['cause'] as const,
    registers,
  });
  let readWalletReadCache: (() => { wallets: number; bytes: number }) | undefined;
  new Gauge({
    name: 'bnbpredict_wallet_read_cache_bytes',
    help: 'Bytes the wallet read cache holds on this instance (answers and stakes, as it counts them against WALLET_READ_CACHE_MB).',
    registers,
    collect() {
      this.set(readWalletReadCache?.().bytes ?? 0);
    },
  });
  new Gauge({
    name: 'bnbpredict_wallet_read_cache_wallets',
    help: 'Wallets whose reads the wallet read cache keeps on this instance.',
    registers,
    collect() {
      this.set(readWalletReadCache?.().wallets ?? 0);
    },
  });

  let readRealtimeListening: (() => boolean) | undefined;
  new Gauge({
    name: 'bnbpredict_realtime_listening',
    help: "1 while this instance's LISTEN connection is up (it hears the realtime events and the wallet changes), 0 while it reconnects.",
    registers,
    collect() {
      if (readRealtimeListening) this.set(readRealtimeListening() ? 1 : 0);
    },
  });

  let readRealtimeConnections: (() => number) | undefined;
  new Gauge({
    name: 'bnbpredict_realtime_connections',
    help: 'WebSocket clients connected to this instance.',
    registers,
    collect() {
      this.set(readRealtimeConnections?.() ?? 0);
    },
  });

  return {
    registry,
    /** One answered request; `route` is the route's template (`/api/markets/:id`), never the URL. */
    observeHttpRequest(input: {
      route: string | undefined;
      method: string;
      status: number;
      seconds: number;
    }) {
      httpDuration.observe(
        {
          route: input.route ?? UNMATCHED_ROUTE,
          method: METHODS.has(input.method) ? input.method : 'other',
          status: String(input.status),
        },
        input.seconds,
      );
    },
    countJobRun(job: string, outcome: 'ok' | 'failed') {
      jobRuns.inc({ job });
      if (outcome === 'failed') jobFailures.inc({ job });
    },
    countPayment(outcome: PaymentOutcome) {
      payments.inc({ outcome });
    },
    countEscrowDeposit(kind: EscrowDepositKind, outcome: EscrowDepositOutcome) {
      escrowDeposits.inc({ kind, outcome });
    },
    countOperatorTransaction(state: OperatorTxState) {
      operatorTransactions.inc({ state });
    },
    countOperatorRefusal(reason: OperatorRefusal) {
      operatorRefusals.inc({ reason });
    },
    countOperatorReleasedNonce() {
      operatorReleasedNonces.inc();
    },
    countOperatorReplacement(kind: OperatorReplacement) {
      operatorReplacements.inc({ kind });
    },
    /** How far an escrow scan's cursor is behind the final head after its run. */
    recordEscrowScanLag(scan: EscrowScan, blocks: bigint) {
      escrowScanLag.set({ scan }, Number(blocks < 0n ? 0n : blocks));
    },
    countMarketFate(fate: 'vetoed' | 'escaped', outcome: MarketFateOutcome) {
      marketFates.inc({ fate, outcome });
    },
    countSettlementWait(reason: SettlementWaitReason) {
      settlementWaits.inc({ reason });
    },
    /** A settlement first seen past its expected time, not final yet. */
    countSettlementOverdue(stage: SettlementOverdueStage) {
      settlementsOverdue.inc({ stage });
    },
    countSettlementFailure(reason: SettlementFailureReason) {
      settlementFailures.inc({ reason });
    },
    countResolution(verdict: ResolutionVerdict) {
      resolutions.inc({ verdict });
    },
    /** How many rounds or price markets the last run of their job left waiting for an unreachable feed. */
    recordFeedWaiting(kind: FeedWaitKind, count: number) {
      feedWaiting.set({ kind }, count);
    },
    /** A round cancelled, or a price market voided, because its feed stayed unreachable. */
    countFeedUnreachable(kind: FeedWaitKind) {
      feedUnreachable.inc({ kind });
    },
    /**
     * The solvency check's verdict on the escrow at one block (core's exact bigint comparison,
     * reservesReport), and the operator key's gas balance read with it.
     */
    recordReserves(input: { covered: boolean; operatorBalanceWei: bigint | null }) {
      reservesCovered.set(input.covered ? 1 : 0);
      if (input.operatorBalanceWei !== null) operatorBalance.set(weiAsGaugeValue(input.operatorBalanceWei));
    },
    /** The escrow contract's figures, all at one block (escrow/escrow-watch-job.ts). */
    recordEscrow(input: {
      balance: bigint;
      liabilities: bigint;
      settlementAllowance: bigint;
      paused: boolean;
    }) {
      escrowBalance.set(weiAsGaugeValue(input.balance));
      escrowLiabilities.set(weiAsGaugeValue(input.liabilities));
      escrowSettlementAllowance.set(weiAsGaugeValue(input.settlementAllowance));
      escrowPaused.set(input.paused ? 1 : 0);
    },
    /** Where scrapes read the coins' latest price times (the prices module). */
    observePriceTimes(source: PriceTimesSource) {
      readPriceTimes = source;
    },
    /** Where scrapes read the operator key's open work and the pending settlements (the escrow module). */
    observeOperatorWork(source: () => Promise<OperatorWork>) {
      readOperatorWork = source;
    },
    /** One wallet read, and how the wallet read cache answered it (decision 032). */
    countWalletRead(read: string, outcome: string) {
      // Bound once per pair: this runs on every wallet read, a cache hit included.
      const key = `${read} ${outcome}`;
      let counter = walletReadCounters.get(key);
      if (!counter) {
        counter = walletReads.labels({ read, outcome });
        walletReadCounters.set(key, counter);
      }
      counter.inc();
    },
    countWalletReadDrops(cause: string, wallets: number) {
      walletReadDrops.inc({ cause }, wallets);
    },
    /** Where scrapes read the wallet read cache's size. */
    observeWalletReadCache(source: () => { wallets: number; bytes: number }) {
      readWalletReadCache = source;
    },
    /** Where scrapes read whether the realtime hub's listening connection is up. */
    observeRealtimeListening(source: () => boolean) {
      readRealtimeListening = source;
    },
    /** Where scrapes read the number of open WebSocket connections (the realtime hub). */
    observeRealtimeConnections(source: () => number) {
      readRealtimeConnections = source;
    },
    /** The Prometheus text exposition of everything above. */
    scrape(): Promise<string> {
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
/** The escrow's event scans that keep a cursor. */
export type EscrowScan = 'deposits' | 'stake-payouts' | 'market-fates';
/** A market the escrow refunded on its own, and what the market-fates job made of its event. */
export type MarketFateOutcome = 'applied' | 'unknown';
/** Why a due settlement waits (escrow/settlements/post-settlements-job.ts). */
export type SettlementWaitReason = 'pool_mismatch' | 'not_ready';
/** Where an overdue settlement stood: not posted yet, or posted with its transaction not final. */
export type SettlementOverdueStage = 'unsent' | 'unconfirmed';
/** Why a settlement step could not send it: its action failed, or the step itself did. */
export type SettlementFailureReason = 'action_failed' | 'step_failed';
/** What the operator sender records: state transitions, refusals, released nonces, replacements. */
export type OperatorSenderMetrics = Pick<
  Metrics,
  | 'countOperatorTransaction'
  | 'countOperatorRefusal'
  | 'countOperatorReleasedNonce'
  | 'countOperatorReplacement'
>;
/** What the round engine and the price-market job record about a price feed they wait for. */
export type FeedWaitMetrics = Pick<Metrics, 'recordFeedWaiting' | 'countFeedUnreachable'>;
