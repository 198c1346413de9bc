import { findCoveringRound, judgeCoveringRound } from '@pm/core/feed-rounds';
import fc from 'fast-check';
import {
  type Address,
  BaseError,
  type ContractFunctionArgs,
  type ContractFunctionName,
  ContractFunctionRevertedError,
  createPublicClient,
  type EncodeFunctionDataParameters,
  encodeFunctionData,
  getAddress,
  getContract,
  type Hash,
  type Hex,
  http,
  keccak256,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
  zeroHash,
} from 'viem';
import { hardhat } from 'viem/chains';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { devFeedProxyAbi } from '../src/dev-feeds.gen.ts';
import { marketEscrowAbi } from '../src/market-escrow.gen.ts';
import { createdMarketKey, roundKey } from '../src/market-escrow-keys.ts';
import { buildPayoutTree, type Payout, type PayoutTree } from '../src/payout-tree.ts';
import {
  forceFeederAbi,
  forceFeederBytecode,
  gasBurnerAbi,
  gasBurnerBytecode,
  hostileAccountAbi,
  hostileAccountBytecode,
} from './attackers.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  createFeedPhases,
  type FeedPhases,
  type FeedPhasesState,
  phaseOf,
  roundIdOf,
} from './market-escrow-feeds.ts';
import {
  ADMIN,
  ANSWER_WINDOW,
  BETTORS,
  BNB,
  BTC,
  createMarketEscrowWorld,
  DAY,
  DISPUTE_BOND_BPS,
  DISPUTE_BOND_MIN,
  ESCAPE_DELAY,
  GUARDIAN,
  HOUR,
  KIND,
  MAX_PRICE_AGE,
  type MarketEscrowWorld,
  MINUTE,
  NO,
  OPERATOR,
  PAYOUT_DELAY,
  type PublishedRound,
  REFUND,
  refOf,
  STATE,
  STRANGER,
  type StakeRef,
  TREASURY,
  YES,
} from './market-escrow-world.ts';

// Random histories against MarketEscrow, checked step by step against a model of it written from its
// specification: rounds, price markets and judged markets; deposits of every size (below each kind's
// minimum too) and side; the feeds published to, left stale for long stretches and moved to a new
// aggregator (a new phase); time jumps; price settlements by anyone with the round ids in force and
// with wrong ones; judged settlements (honest lists, greedy ones, lists naming more than their total),
// amendments, withdrawals, voids, disputes with exact and wrong bonds, vetoes, refused deposits;
// pauses; claims, batches holding spent stakes, refunds, escapes, credits and their withdrawals, fees,
// BNB forced in and swept. Every action's result (its revert, by name, or its success) must be the
// model's; after every step the contract's state must be the model's, its balance must cover its
// liabilities, which must be the markets' open money plus the credits, no market may have paid out
// more than came in, no stake may leave twice, a price kind's outcome must be the feed's (core's rule,
// recomputed here), and every account's balance must be what the model says, net of gas: BNB goes
// only to bettors and the treasury. Each history ends by paying out everything that can be paid, after
// which nothing is owed. Histories start from one chain snapshot, so each is independent.
// CI runs a few; MARKET_ESCROW_FUZZ_RUNS=100 MARKET_ESCROW_FUZZ_STEPS=80 runs long ones.

const RUNS = Number(process.env.MARKET_ESCROW_FUZZ_RUNS ?? 6);
const STEPS = Number(process.env.MARKET_ESCROW_FUZZ_STEPS ?? 60);
/** MARKET_ESCROW_FUZZ_TRACE=1 prints every transaction and its result. */
const TRACE = process.env.MARKET_ESCROW_FUZZ_TRACE === '1';

const MIN_MARKET_DEPOSIT = parseEther('0.005');
const MIN_ROUND_DEPOSIT = parseEther('0.01');
const MAX_BETTING_PERIOD = 2 * DAY;
const MAX_PAYOUT_DELAY = 7 * DAY;
const ROUND_FEE_BPS = 300n;
const PRICE_MARKET_FEE_BPS = 200n;
const MAX_FEE_BPS = 1000n;
/** A small bucket, so settlements of judged markets run into it now and then. */
const CAPACITY = parseEther('1.5');
const REFILL_PER_HOUR = parseEther('0.5');
const ROUND_MASK = (1n << 64n) - 1n;
const OUTCOMES: Record<number, string> = {
  [YES]: 'YES (UP)',
  [NO]: 'NO (DOWN)',
  [REFUND.draw]: 'draw',
  [REFUND.noWinner]: 'no winner',
  [REFUND.stale]: 'stale',
  [REFUND.notPositive]: 'not positive',
};

/**
 * Bettors: EOAs that take their payouts; a contract whose receive reverts (HostileAccount, driven by its
 * controller); an EOA delegated (EIP-7702) to code that burns all its gas when paid.
 */
const EOA_BETTORS: number[] = BETTORS.slice(0, 6);
/** Not a dev account: the contract's index here. */
const HOSTILE = 100;
const BURNER = BETTORS[6];
const PLAYERS = [...EOA_BETTORS, HOSTILE, BURNER];
/** Their pushed payouts fail: they become credits, withdrawn elsewhere. */
const REFUSES = new Set<number>([HOSTILE, BURNER]);
const FORCER = BETTORS[7];
/** Deploys the attackers and sends the hostile contract's calls (with their value). */
const CONTROLLER = BETTORS[8];
/** Every account a history touches: each one's balance is checked. */
const ACCOUNTS = [...Array.from({ length: 16 }, (_, index) => index), HOSTILE];
const CALLERS = [STRANGER, FORCER, OPERATOR, GUARDIAN, EOA_BETTORS[0] ?? 4, BURNER];
let hostileAddress: Address;
/** Each account's address, derived once (a derivation from the mnemonic takes milliseconds). */
const ADDRESSES = new Map<number, Address>();
const address = (index: number): Address => {
  if (index === HOSTILE) return hostileAddress;
  const known = ADDRESSES.get(index) ?? devAccount(index).address;
  ADDRESSES.set(index, known);
  return known;
};
/** Who pays a call's value and gas: the hostile contract's calls come from its controller. */
const payerOf = (index: number) => (index === HOSTILE ? CONTROLLER : index);
/** The hostile contract's `forward`, which bubbles the escrow's errors up for viem to decode. */
const FORWARD_ABI = [...hostileAccountAbi, ...marketEscrowAbi.filter((item) => item.type === 'error')];
type EscrowWrite = { functionName: string; args: readonly unknown[] };
/** A call of the escrow, typed by its function. */
const escrowCall = <const F extends ContractFunctionName<typeof marketEscrowAbi, 'payable' | 'nonpayable'>>(
  functionName: F,
  args: ContractFunctionArgs<typeof marketEscrowAbi, 'payable' | 'nonpayable', F>,
): EscrowWrite => ({ functionName, args: args as readonly unknown[] });

/** The feeds' starting prices (8 decimals) and their walk's step, a cent. */
const START_PRICE = [600_00000000n, 100_000_00000000n];
const STEP = 1_000_000n;

// ---------------------------------------------------------------- the model

type Kind = 'round' | 'price' | 'judged';

/** A market's terms, fixed for a history: a round's key follows from them, a creation's from its creator. */
type Slot = {
  kind: Kind;
  coin: number;
  /** Deposits close: a round's lock, a market's deadline. */
  closesAt: number;
  /** A price kind's deciding instant: a round's close, a price market's deadline. */
  decidesAt: number;
  target: bigint;
  above: boolean;
  id: Hex;
};

type MarketModel = {
  key: Hex | undefined;
  state: number;
  pool: bigint;
  yes: bigint;
  no: bigint;
  outcome: number;
  claimableAt: number;
  payoutTotal: bigint;
  paid: bigint;
  fee: bigint;
  winnersClaimed: bigint;
  bonds: bigint;
  drawn: bigint;
  answerBy: number;
  disputes: number;
  disputed: number[];
  root: Hex;
  leaves: Map<bigint, bigint>;
  /** The feed rounds a price settlement proved. */
  lockRoundId: bigint;
  closeRoundId: bigint;
};

type StakeModel = {
  stakeId: bigint;
  owner: number;
  slot: number;
  amount: bigint;
  side: number;
  open: boolean;
};

type Model = {
  markets: MarketModel[];
  stakes: Map<bigint, StakeModel>;
  liabilities: bigint;
  nextStakeId: bigint;
  paused: boolean;
  credits: Map<number, bigint>;
  bucket: { level: bigint; updatedAt: number };
  /** BNB forced in, outside the liabilities. */
  excess: bigint;
  escrow: bigint;
  balances: Map<number, bigint>;
};

/** A revert the model expects, by the contract's error name. */
class Revert {
  constructor(readonly errorName: string) {}
}
const fail = (errorName: string): never => {
  throw new Revert(errorName);
};
const add = (map: Map<number, bigint>, key: number, amount: bigint) =>
  map.set(key, (map.get(key) ?? 0n) + amount);

function emptyMarket(): MarketModel {
  return {
    key: undefined,
    state: STATE.None,
    pool: 0n,
    yes: 0n,
    no: 0n,
    outcome: 0,
    claimableAt: 0,
    payoutTotal: 0n,
    paid: 0n,
    fee: 0n,
    winnersClaimed: 0n,
    bonds: 0n,
    drawn: 0n,
    answerBy: 0,
    disputes: 0,
    disputed: [],
    root: zeroHash,
    leaves: new Map(),
    lockRoundId: 0n,
    closeRoundId: 0n,
  };
}

const kindCode = (kind: Kind) =>
  kind === 'round' ? KIND.Round : kind === 'price' ? KIND.PriceMarket : KIND.Judged;
const sideTotal = (m: { yes: bigint; no: bigint }, side: number) =>
  side === YES ? m.yes : side === NO ? m.no : 0n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** What a market owes: its pool until it settles; then its winners' unpaid share and its unsent fee. */
type Owing = Pick<
  MarketModel,
  'state' | 'pool' | 'yes' | 'no' | 'outcome' | 'payoutTotal' | 'paid' | 'fee' | 'winnersClaimed'
>;
function owed(kind: Kind, m: Owing): bigint {
  if (m.state !== STATE.Settled) return m.pool;
  // Once a price kind's last winner has claimed, the rounding dust has moved to the fee.
  if (kind !== 'judged' && m.winnersClaimed === sideTotal(m, m.outcome)) return m.fee;
  return m.payoutTotal - m.paid + m.fee;
}

// ---------------------------------------------------------------- actions

const player = fc.nat(PLAYERS.length - 1);
const caller = fc.nat(CALLERS.length - 1);
/** A deposit's value: whole cents, mostly, or each kind's minimum and just below it. */
const amountChoice = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.integer({ min: 1, max: 60 }).map((cents) => parseEther('0.01') * BigInt(cents)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      MIN_ROUND_DEPOSIT,
      MIN_MARKET_DEPOSIT,
      MIN_ROUND_DEPOSIT - 1n,
      MIN_MARKET_DEPOSIT - 1n,
      1n,
    ),
  },
);
const sideChoice = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(YES, NO) },
  { weight: 1, arbitrary: fc.constantFrom(0, 3) },
);
/** Which round id a settlement names for an instant: the one in force, mostly, or a wrong one. */
const idChoice = fc.oneof(
  { weight: 3, arbitrary: fc.constant('right' as const) },
  { weight: 1, arbitrary: fc.constantFrom('earlier', 'later', 'otherPhase', 'zero', 'oldest') },
);
const stakePick = fc.nat(200);
/**
 * How the feeds behave while time passes: live, they publish a round shortly before each market's
 * instant (`jitter` seconds before it; past the age limit now and then), walking by `drift`; down, they
 * publish nothing (a stale stretch).
 */
const feedChoice = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record({
      live: fc.constant(true),
      jitter: fc.oneof(
        { weight: 20, arbitrary: fc.integer({ min: 0, max: 60 }) },
        { weight: 1, arbitrary: fc.constantFrom(MAX_PRICE_AGE, MAX_PRICE_AGE + 1, 5 * MINUTE) },
      ),
      drift: fc.array(fc.constantFrom(-1, 0, 1), { minLength: 8, maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ live: false, jitter: 0, drift: [] as number[] }) },
);

const depositArbitrary = fc.record({
  type: fc.constant('deposit' as const),
  bettor: player,
  slot: fc.nat(6),
  amount: amountChoice,
  side: sideChoice,
  viaBet: fc.boolean(),
});

const actionArbitrary = fc.oneof(
  { weight: 6, arbitrary: depositArbitrary },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('publish' as const),
      coin: fc.constantFrom(BNB, BTC),
      move: fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom(-1, 0, 1) },
        { weight: 1, arbitrary: fc.constant('notPositive' as const) },
      ),
      gap: fc.integer({ min: 1, max: 90 }),
    }),
  },
  {
    weight: 4,
    // A price right before (or at) a market's instant, on either side of the age limit.
    arbitrary: fc.record({
      type: fc.constant('priceNear' as const),
      slot: fc.nat(4),
      which: fc.constantFrom('lock', 'decides'),
      offset: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(0, 1, 30, MAX_PRICE_AGE - 1, MAX_PRICE_AGE) },
        { weight: 1, arbitrary: fc.constantFrom(MAX_PRICE_AGE + 1, 400) },
      ),
      move: fc.constantFrom(-1, 0, 1),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('phase' as const), coin: fc.constantFrom(BNB, BTC) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('travel' as const),
      // Mostly within a market's life; now and then far past every deadline.
      seconds: fc.oneof(
        { weight: 24, arbitrary: fc.constantFrom(5, 30, 2 * MINUTE, 10 * MINUTE) },
        { weight: 4, arbitrary: fc.constant(HOUR) },
        { weight: 1, arbitrary: fc.constant(8 * DAY) },
      ),
      feed: feedChoice,
    }),
  },
  {
    weight: 3,
    // To the second a market's deadline of some kind falls on, or just around it.
    arbitrary: fc.record({
      type: fc.constant('skipTo' as const),
      slot: fc.nat(6),
      what: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('closes', 'decides', 'claimable') },
        { weight: 1, arbitrary: fc.constantFrom('escape', 'answerBy') },
      ),
      offset: fc.integer({ min: -2, max: 2 }),
      feed: feedChoice,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('settlePrice' as const),
      slot: fc.nat(4),
      caller,
      lock: idChoice,
      close: idChoice,
      wrongFunction: fc.oneof(
        { weight: 15, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('operatorOnPrice' as const),
      slot: fc.nat(4),
      what: fc.constantFrom('settle', 'settleAsRefund', 'veto', 'refundStake', 'withdrawSettlement'),
      stake: stakePick,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('settleJudged' as const),
      slot: fc.constantFrom(5, 6),
      // First let time run to the market's close (else most settlements come too early).
      wait: fc.boolean(),
      byOperator: fc.oneof(
        { weight: 10, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      outcome: fc.constantFrom(YES, NO),
      list: fc.oneof(
        { weight: 6, arbitrary: fc.constant('honest' as const) },
        { weight: 1, arbitrary: fc.constantFrom('greedy', 'overlisted', 'poolMismatch') },
      ),
      bondsReturned: fc.boolean(),
      feeBps: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 0, max: 900 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1001, max: 1500 }) },
      ),
      delay: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(PAYOUT_DELAY, HOUR) },
        { weight: 1, arbitrary: fc.constantFrom(PAYOUT_DELAY - 1, MAX_PAYOUT_DELAY, MAX_PAYOUT_DELAY + 1) },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('voidJudged' as const), slot: fc.constantFrom(5, 6), caller }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('withdrawSettlement' as const),
      slot: fc.constantFrom(5, 6),
      caller,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('dispute' as const),
      stake: stakePick,
      // With no settlement pending, the operator first settles a judged market (a dispute needs one).
      settleFirst: fc.boolean(),
      byOwner: fc.oneof(
        { weight: 6, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      bond: fc.oneof(
        { weight: 6, arbitrary: fc.constant('exact' as const) },
        { weight: 1, arbitrary: fc.constantFrom('weiUnder', 'weiOver', 'double') },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('veto' as const), slot: fc.nat(6), caller }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('refundStake' as const), stake: stakePick, caller }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('pause' as const), on: fc.boolean(), caller }) },
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('claim' as const),
      stake: stakePick,
      caller,
      wait: fc.boolean(),
      forge: fc.oneof(
        { weight: 10, arbitrary: fc.constant('none' as const) },
        { weight: 1, arbitrary: fc.constantFrom('payout', 'owner') },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('claimMany' as const),
      stakes: fc.array(stakePick, { minLength: 1, maxLength: 6 }),
      caller,
      wait: fc.boolean(),
      anyStake: fc.oneof(
        { weight: 6, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('refund' as const), stake: stakePick, caller }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('refundMany' as const),
      stakes: fc.array(stakePick, { minLength: 1, maxLength: 6 }),
      caller,
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('withdraw' as const), bettor: player }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('collectFee' as const), slot: fc.nat(6), caller }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('force' as const), cents: fc.integer({ min: 1, max: 20 }) }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('sweep' as const), caller }) },
);
type Action = typeof actionArbitrary extends fc.Arbitrary<infer A> ? A : never;

// ---------------------------------------------------------------- the world

let world: MarketEscrowWorld;
let feeds: FeedPhases;
let initialFeeds: FeedPhasesState;
let snapshot: Hex;
/** Reads in one JSON-RPC batch: a step's checks read a hundred values. */
let batchRead: MarketEscrowWorld['read'];
let batchClient: ReturnType<typeof createPublicClient>;
/** The chain's clock as the model keeps it: every transaction's block is mined at `clock + 1`. */
let clock = 0;
/** The time of the latest block mined (views read it). */
let latestBlock = 0;

beforeAll(async () => {
  world = await createMarketEscrowWorld({ capacity: CAPACITY, refillPerHour: REFILL_PER_HOUR });
  feeds = createFeedPhases(world, { nextTimestamp: () => ++clock });
  batchClient = createPublicClient({
    chain: hardhat,
    transport: http(world.node.rpcUrl, { batch: { batchSize: 500, wait: 0 } }),
  });
  batchRead = getContract({ address: world.address, abi: marketEscrowAbi, client: batchClient }).read;

  // A contract bettor whose receive reverts, and an EOA delegated (EIP-7702) to a gas burner.
  const hostile = await world.mined(
    world.walletOf(CONTROLLER).deployContract({
      abi: hostileAccountAbi,
      bytecode: hostileAccountBytecode,
      args: [world.address],
    }),
  );
  if (!hostile.contractAddress) throw new Error('no hostile account');
  hostileAddress = getAddress(hostile.contractAddress);
  await world.mined(
    world.walletOf(CONTROLLER).writeContract({
      address: hostileAddress,
      abi: hostileAccountAbi,
      functionName: 'setMode',
      args: [2, '0x'],
    }),
  );
  const burner = await world.mined(
    world.walletOf(CONTROLLER).deployContract({ abi: gasBurnerAbi, bytecode: gasBurnerBytecode }),
  );
  if (!burner.contractAddress) throw new Error('no burner');
  const authorization = await world
    .walletOf(BURNER)
    .signAuthorization({ account: devAccount(BURNER), contractAddress: burner.contractAddress });
  await world.mined(
    world
      .walletOf(CONTROLLER)
      .sendTransaction({ to: address(CONTROLLER), authorizationList: [authorization] }),
  );
  initialFeeds = feeds.save();
  snapshot = await world.testClient.snapshot();
});
afterAll(() => world?.stop());

/** Which actions went through or were refused, by what, over all histories. */
const tally = new Map<string, number>();
const count = (label: string) => tally.set(label, (tally.get(label) ?? 0) + 1);

/** The contract's error name of a refused call; anything that is not a revert fails the test. */
function revertName(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      return reverted.data?.errorName ?? reverted.reason ?? reverted.shortMessage;
    }
  }
  throw error;
}

// ---------------------------------------------------------------- one history

async function runHistory(input: { targets: [number, number]; bets: Action[]; actions: Action[] }) {
  await world.testClient.revert({ id: snapshot });
  snapshot = await world.testClient.snapshot();
  feeds.restore(initialFeeds);
  clock = Number((await world.publicClient.getBlock()).timestamp);
  latestBlock = clock;
  const start = clock;

  const slots: Slot[] = [
    round(BNB, 10 * MINUTE, 5 * MINUTE),
    round(BTC, 20 * MINUTE, 10 * MINUTE),
    round(BNB, 30 * MINUTE, MINUTE),
    priceMarket(BNB, 25 * MINUTE, true, input.targets[0]),
    priceMarket(BTC, 45 * MINUTE, false, input.targets[1]),
    judged(20 * MINUTE),
    judged(40 * MINUTE),
  ];
  function round(coin: number, lockIn: number, span: number): Slot {
    const closesAt = start + lockIn;
    return {
      kind: 'round',
      coin,
      closesAt,
      decidesAt: closesAt + span,
      target: 0n,
      above: false,
      id: zeroHash,
    };
  }
  function priceMarket(coin: number, closesIn: number, above: boolean, offset: number): Slot {
    const closesAt = start + closesIn;
    const target = (START_PRICE[coin] ?? 0n) + BigInt(offset) * STEP;
    return {
      kind: 'price',
      coin,
      closesAt,
      decidesAt: closesAt,
      target,
      above,
      id: keccak256(toHex(`price ${coin}`)),
    };
  }
  function judged(closesIn: number): Slot {
    const closesAt = start + closesIn;
    return {
      kind: 'judged',
      coin: 0,
      closesAt,
      decidesAt: closesAt,
      target: 0n,
      above: false,
      id: keccak256(toHex(`judged ${closesIn}`)),
    };
  }

  const balances = new Map<number, bigint>();
  for (const index of ACCOUNTS)
    balances.set(index, await world.publicClient.getBalance({ address: address(index) }));
  let model: Model = {
    markets: slots.map(emptyMarket),
    stakes: new Map(),
    liabilities: 0n,
    nextStakeId: 1n,
    paused: false,
    credits: new Map(),
    bucket: { level: CAPACITY, updatedAt: clock },
    excess: 0n,
    escrow: await world.publicClient.getBalance({ address: world.address }),
    balances,
  };
  expect(model.escrow).toBe(0n);
  /** Payout lists by root, for their proofs. */
  const trees = new Map<Hex, PayoutTree>();
  /** Each stake's exits (Claimed or Refunded), and each market's money in and out, from the events. */
  const exits = new Map<bigint, number>();
  const flows = new Map<Hex, { in: bigint; out: bigint }>();
  const price = [...START_PRICE];

  // ---------------------------------------------------------------- model helpers

  const keyOf = (m: Model, slot: number): Hex => {
    const terms = slots[slot];
    if (!terms) throw new Error(`no slot ${slot}`);
    if (terms.kind === 'round') return roundKey(terms.coin, terms.closesAt, terms.decidesAt);
    // An uncreated market's key as its first player would create it: nothing is there yet.
    return (
      m.markets[slot]?.key ??
      createdMarketKey(terms.kind === 'price' ? 'priceMarket' : 'judged', address(PLAYERS[0] ?? 4), terms.id)
    );
  };
  const marketOf = (m: Model, slot: number): MarketModel => {
    const market = m.markets[slot];
    if (!market) throw new Error(`no slot ${slot}`);
    return market;
  };
  const slotOfKey = (m: Model, key: Hex): number => m.markets.findIndex((market) => market.key === key);
  const termsOf = (slot: number): Slot => {
    const terms = slots[slot];
    if (!terms) throw new Error(`no slot ${slot}`);
    return terms;
  };
  const refOfStake = (m: Model, stake: StakeModel): StakeRef => ({
    stakeId: stake.stakeId,
    owner: address(stake.owner),
    market: keyOf(m, stake.slot),
    amount: stake.amount,
    side: stake.side,
  });
  const settleBy = (slot: number, market: MarketModel) =>
    Math.max(termsOf(slot).closesAt + ESCAPE_DELAY, market.answerBy);
  const allowance = (m: Model, now: number) => {
    const level = m.bucket.level + (BigInt(now - m.bucket.updatedAt) * REFILL_PER_HOUR) / BigInt(HOUR);
    return level < CAPACITY ? level : CAPACITY;
  };

  function requireStake(m: Model, ref: StakeRef): StakeModel {
    const stake = m.stakes.get(ref.stakeId);
    if (
      ref.stakeId === 0n ||
      !stake?.open ||
      address(stake.owner) !== ref.owner ||
      keyOf(m, stake.slot) !== ref.market ||
      stake.amount !== ref.amount ||
      stake.side !== ref.side
    ) {
      return fail('StakeMismatch');
    }
    return stake;
  }
  const isSpent = (m: Model, ref: StakeRef) =>
    ref.stakeId !== 0n && ref.stakeId < m.nextStakeId && !m.stakes.get(ref.stakeId)?.open;

  /** A pushed payout: to its owner, or a credit when the owner's code refuses it. */
  function pay(m: Model, to: number, amount: bigint) {
    if (REFUSES.has(to)) {
      add(m.credits, to, amount);
      return;
    }
    m.liabilities -= amount;
    m.escrow -= amount;
    add(m.balances, to, amount);
  }

  function recordStake(m: Model, owner: number, slot: number, amount: bigint, side: number) {
    const stakeId = m.nextStakeId;
    m.stakes.set(stakeId, { stakeId, owner, slot, amount, side, open: true });
    m.nextStakeId += 1n;
    m.liabilities += amount;
  }

  function simBet(m: Model, now: number, slot: number, bettor: number, value: bigint, side: number) {
    const terms = termsOf(slot);
    const market = marketOf(m, slot);
    if (m.paused) fail('EnforcedPause');
    if (value < (terms.kind === 'round' ? MIN_ROUND_DEPOSIT : MIN_MARKET_DEPOSIT)) fail('BelowMinimum');
    if (side !== YES && side !== NO) fail('BadSide');
    if (market.state !== STATE.Open) fail('MarketNotOpen');
    if (now >= terms.closesAt) fail('BettingClosed');
    market.pool += value;
    if (terms.kind !== 'judged') {
      if (side === YES) market.yes += value;
      else market.no += value;
    }
    recordStake(m, bettor, slot, value, side);
  }

  function requireCloseInRange(closesAt: number, now: number) {
    if (closesAt <= now) fail('BettingClosed');
    if (closesAt > now + MAX_BETTING_PERIOD) fail('CloseTooFar');
  }

  /** RoundInForce.prove, as decision 029 states it, over the feed's published rounds. */
  function prove(coin: number, roundId: bigint, instant: number, now: number): PublishedRound {
    if (instant >= now) fail('InstantNotPast');
    const phase = phaseOf(roundId);
    const current = feeds.phase(coin);
    if (phase === 0 || (roundId & ROUND_MASK) === 0n || phase > current) fail('NoSuchRound');
    if (phase < current - 1) fail('PhaseTooOld');
    const find = (id: bigint) => feeds.rounds(coin).find((round) => round.roundId === id);
    const round = find(roundId) ?? fail('NoSuchRound');
    if (round.updatedAt > instant) fail('RoundTooLate');
    const next = find(roundId + 1n);
    if (next && next.updatedAt <= instant) fail('RoundNotInForce');
    const first = find(roundIdOf(current, 1n));
    if (phase < current && first && first.updatedAt <= instant) fail('RoundNotInForce');
    // Only the round in force (the last updated at or before the instant) gets here.
    expect(round.roundId).toBe(feeds.roundAt(coin, instant)?.roundId);
    return round;
  }

  /** Core's judgement of a proved round: its price, or why it gives none. */
  const judge = (round: PublishedRound, instant: number) =>
    judgeCoveringRound(
      { roundId: round.roundId, answer: round.answer, updatedAtMs: round.updatedAt * 1000 },
      instant * 1000,
      MAX_PRICE_AGE * 1000,
    );

  function simSettlePrice(
    m: Model,
    now: number,
    slot: number,
    lockId: bigint,
    closeId: bigint,
    wrongFunction: boolean,
  ) {
    const terms = termsOf(slot);
    const market = marketOf(m, slot);
    const kind = wrongFunction ? (terms.kind === 'round' ? 'price' : 'round') : terms.kind;
    if (market.state === STATE.None || kind !== terms.kind) fail('WrongKind');
    if (market.state !== STATE.Open) fail('NotSettleable');
    let outcome: number;
    if (terms.kind === 'round') {
      const lock = judge(prove(terms.coin, lockId, terms.closesAt, now), terms.closesAt);
      const close = judge(prove(terms.coin, closeId, terms.decidesAt, now), terms.decidesAt);
      if (
        (!lock.found && lock.reason === 'not_positive') ||
        (!close.found && close.reason === 'not_positive')
      ) {
        outcome = REFUND.notPositive;
      } else if (!lock.found || !close.found) outcome = REFUND.stale;
      else if (close.round.answer > lock.round.answer) outcome = YES;
      else if (close.round.answer < lock.round.answer) outcome = NO;
      else outcome = REFUND.draw;
      market.lockRoundId = lockId;
    } else {
      const reading = judge(prove(terms.coin, closeId, terms.decidesAt, now), terms.decidesAt);
      if (!reading.found) outcome = reading.reason === 'not_positive' ? REFUND.notPositive : REFUND.stale;
      else
        outcome = (terms.above ? reading.round.answer > terms.target : reading.round.answer < terms.target)
          ? YES
          : NO;
    }
    market.closeRoundId = closeId;
    if ((outcome === YES || outcome === NO) && sideTotal(market, outcome) === 0n) outcome = REFUND.noWinner;
    market.outcome = outcome;
    market.claimableAt = now;
    if (outcome === YES || outcome === NO) {
      market.fee = (market.pool * (terms.kind === 'round' ? ROUND_FEE_BPS : PRICE_MARKET_FEE_BPS)) / 10_000n;
      market.payoutTotal = market.pool - market.fee;
      market.state = STATE.Settled;
    } else market.state = STATE.Refunding;
  }

  /** `_judgedSettleable`: a judged market open, reopened or pending, within its settlement window. */
  function judgedSettleable(m: Model, now: number, slot: number): MarketModel {
    const terms = termsOf(slot);
    const market = marketOf(m, slot);
    if (terms.kind !== 'judged' || market.state === STATE.None) fail('WrongKind');
    const pending = market.state === STATE.Settled && now < market.claimableAt;
    if (market.state !== STATE.Open && market.state !== STATE.Reopened && !pending) fail('NotSettleable');
    if (now >= settleBy(slot, market)) fail('SettlementWindowOver');
    return market;
  }

  function reopen(market: MarketModel) {
    market.state = STATE.Reopened;
    market.claimableAt = 0;
    market.payoutTotal = 0n;
    market.fee = 0n;
    market.root = zeroHash;
    market.leaves = new Map();
  }

  function simClaim(m: Model, now: number, ref: StakeRef, payout: bigint, proofValid: boolean) {
    const slot = slotOfKey(m, ref.market);
    const market = marketOf(m, slot);
    const stake = m.stakes.get(ref.stakeId);
    if (!stake) throw new Error('a claim of a stake the model lacks');
    if (market.state !== STATE.Settled || now < market.claimableAt) fail('NotClaimable');
    let amount: bigint;
    if (termsOf(slot).kind === 'judged') {
      amount = payout;
      if (amount === 0n) fail('NotAWinner');
      if (!proofValid || market.leaves.get(stake.stakeId) !== amount) fail('InvalidProof');
    } else {
      if (payout !== 0n || !proofValid) fail('PayoutNamed');
      if (stake.side !== market.outcome) fail('NotAWinner');
      const winning = sideTotal(market, stake.side);
      amount = (stake.amount * market.payoutTotal) / winning;
      market.winnersClaimed += stake.amount;
      if (market.winnersClaimed === winning) market.fee += market.payoutTotal - market.paid - amount;
    }
    stake.open = false;
    market.paid += amount;
    if (market.paid > market.payoutTotal) fail('PayoutExceedsTotal');
    pay(m, stake.owner, amount);
  }

  function simRefund(m: Model, now: number, ref: StakeRef) {
    const slot = slotOfKey(m, ref.market);
    const market = marketOf(m, slot);
    const stake = m.stakes.get(ref.stakeId);
    if (!stake) throw new Error('a refund of a stake the model lacks');
    if (market.state === STATE.Open || market.state === STATE.Reopened) {
      const terms = termsOf(slot);
      const deadline = terms.kind === 'judged' ? settleBy(slot, market) : terms.closesAt + ESCAPE_DELAY;
      if (now < deadline) fail('NotRefundable');
      market.state = STATE.Refunding;
    } else if (market.state !== STATE.Refunding) fail('NotRefundable');
    stake.open = false;
    market.pool -= stake.amount;
    pay(m, stake.owner, stake.amount);
  }

  // ---------------------------------------------------------------- running a transaction

  type Planned = {
    label: string;
    from: number;
    value?: bigint;
    send: () => Promise<Hash>;
    simulate: (m: Model, now: number) => void;
  };

  /** Sends `planned` in the next second's block and holds it to the model: the same revert or success. */
  async function run(planned: Planned): Promise<TransactionReceipt | undefined> {
    const now = clock + 1;
    const next = structuredClone(model);
    const value = planned.value ?? 0n;
    add(next.balances, payerOf(planned.from), -value);
    next.escrow += value;
    let expected: string | undefined;
    try {
      planned.simulate(next, now);
    } catch (error) {
      if (!(error instanceof Revert)) throw error;
      expected = error.errorName;
    }
    await world.testClient.setNextBlockTimestamp({ timestamp: BigInt(now) });
    let receipt: TransactionReceipt | undefined;
    let refused: string | undefined;
    try {
      receipt = await world.publicClient.waitForTransactionReceipt({ hash: await planned.send() });
    } catch (error) {
      refused = revertName(error);
    }
    // A call whose estimate passed must not revert on chain: the escrow's gas checks run in the estimate.
    if (receipt && receipt.status !== 'success') throw new Error(`${planned.label}: reverted on chain`);
    expect(refused, `${planned.label} at ${now}`).toBe(expected);
    count(`${planned.label}: ${refused ?? 'ok'}`);
    if (TRACE) console.log(now, planned.label, refused ?? 'ok');
    if (!receipt) return undefined;
    clock = now;
    latestBlock = now;
    add(next.balances, payerOf(planned.from), -(receipt.gasUsed * receipt.effectiveGasPrice));
    model = next;
    recordEvents(receipt);
    return receipt;
  }

  /** `from`'s call of the escrow: the hostile contract's goes through its `forward`, from its controller. */
  function sendAs(from: number, call: EscrowWrite, value = 0n): Promise<Hash> {
    if (from === HOSTILE) {
      const data = encodeFunctionData({ abi: marketEscrowAbi, ...call } as EncodeFunctionDataParameters<
        typeof marketEscrowAbi
      >);
      return world.walletOf(CONTROLLER).writeContract({
        address: hostileAddress,
        abi: FORWARD_ABI,
        functionName: 'forward',
        args: [data],
        value,
      });
    }
    return world
      .walletOf(from)
      .writeContract({ address: world.address, abi: marketEscrowAbi, ...call, value } as never);
  }

  /** A transaction outside the escrow (a feed's): only its gas is the model's. */
  function paidGas(receipt: TransactionReceipt) {
    const from = ACCOUNTS.find((index) => address(index).toLowerCase() === receipt.from.toLowerCase());
    if (from === undefined) throw new Error(`unknown sender ${receipt.from}`);
    add(model.balances, from, -(receipt.gasUsed * receipt.effectiveGasPrice));
    latestBlock = Math.max(latestBlock, clock);
  }

  function recordEvents(receipt: TransactionReceipt) {
    const logs = parseEventLogs({
      abi: marketEscrowAbi,
      logs: receipt.logs.filter((log) => log.address.toLowerCase() === world.address.toLowerCase()),
    });
    const flow = (key: Hex) => {
      const entry = flows.get(key) ?? { in: 0n, out: 0n };
      flows.set(key, entry);
      return entry;
    };
    for (const log of logs) {
      switch (log.eventName) {
        case 'Deposited':
          flow(log.args.market).in += log.args.amount;
          break;
        case 'Claimed':
        case 'Refunded': {
          exits.set(log.args.stakeId, (exits.get(log.args.stakeId) ?? 0) + 1);
          // Paid or refunded to the stake's own owner only.
          expect(log.args.owner).toBe(address(model.stakes.get(log.args.stakeId)?.owner ?? -1));
          flow(log.args.market).out += log.args.amount;
          break;
        }
        case 'FeeCollected':
          flow(log.args.market).out += log.args.amount;
          break;
        case 'PriceSettled':
          count(`outcome: ${OUTCOMES[log.args.outcome] ?? log.args.outcome}`);
          break;
      }
    }
  }

  // ---------------------------------------------------------------- the actions

  const stakesOf = (filter: (stake: StakeModel) => boolean) => [...model.stakes.values()].filter(filter);
  const pickFrom = <T>(list: T[], index: number): T | undefined => list[index % Math.max(list.length, 1)];
  const someStake = (index: number) => pickFrom([...model.stakes.values()], index);
  const winning = (stake: StakeModel) => {
    const market = marketOf(model, stake.slot);
    if (market.state !== STATE.Settled || !stake.open) return false;
    return termsOf(stake.slot).kind === 'judged'
      ? market.leaves.has(stake.stakeId)
      : stake.side === market.outcome;
  };
  const refundable = (stake: StakeModel) => {
    const market = marketOf(model, stake.slot);
    if (!stake.open) return false;
    if (market.state === STATE.Refunding) return true;
    if (market.state !== STATE.Open && market.state !== STATE.Reopened) return false;
    const terms = termsOf(stake.slot);
    return (
      clock + 1 >= (terms.kind === 'judged' ? settleBy(stake.slot, market) : terms.closesAt + ESCAPE_DELAY)
    );
  };
  /** A claim of `stake` as the contract takes it: a judged stake's payout and proof from its list. */
  function claimOf(stake: StakeModel, forge: 'none' | 'payout' | 'owner') {
    const ref = refOfStake(model, stake);
    if (forge === 'owner') ref.owner = address(STRANGER);
    const market = marketOf(model, stake.slot);
    if (termsOf(stake.slot).kind !== 'judged') {
      const payout = forge === 'payout' ? 1n : 0n;
      return { claim: { stake: ref, payout, proof: [] as Hex[] }, payout, proofValid: forge !== 'payout' };
    }
    const listed = market.leaves.get(stake.stakeId);
    const tree = trees.get(market.root);
    if (listed === undefined || !tree) {
      const payout = forge === 'payout' ? 1n : 0n;
      return { claim: { stake: ref, payout, proof: [] as Hex[] }, payout, proofValid: false };
    }
    const payout = forge === 'payout' ? listed + 1n : listed;
    return { claim: { stake: ref, payout, proof: tree.proof(stake.stakeId) }, payout, proofValid: true };
  }
  /** Waits until the next block is at `timestamp` at least, the feeds live meanwhile. */
  const waitUntil = (timestamp: number) =>
    advance(timestamp - 1, { live: true, jitter: 5, drift: [0, 1, -1] });

  function roundIdFor(coin: number, instant: number, choice: string): bigint {
    const rounds = feeds.rounds(coin);
    const right = feeds.roundAt(coin, instant);
    const at = right ? rounds.indexOf(right) : -1;
    switch (choice) {
      case 'right':
        return right?.roundId ?? rounds[0]?.roundId ?? roundIdOf(1, 1n);
      case 'earlier':
        return rounds[at - 1]?.roundId ?? (right ? right.roundId - 1n : 0n);
      case 'later':
        return rounds[at + 1]?.roundId ?? (right ? right.roundId + 1n : roundIdOf(1, 1n));
      case 'otherPhase':
        return right ? roundIdOf(phaseOf(right.roundId) + 1, right.roundId & ROUND_MASK) : roundIdOf(2, 1n);
      case 'oldest':
        return rounds[0]?.roundId ?? 0n;
      default:
        return 0n;
    }
  }

  async function publish(coin: number, move: number | 'notPositive', at: number) {
    let answer: bigint;
    if (move === 'notPositive') answer = clock % 2 === 0 ? 0n : -STEP;
    else {
      price[coin] = (price[coin] ?? 0n) + BigInt(move) * STEP;
      answer = price[coin] ?? 0n;
    }
    clock = at;
    const { receipt } = await feeds.publish(coin, answer, at);
    paidGas(receipt);
    count('publish');
  }

  async function claimStake(
    stake: StakeModel,
    from: number,
    forge: 'none' | 'payout' | 'owner',
    wait: boolean,
  ) {
    if (wait) await waitUntil(marketOf(model, stake.slot).claimableAt);
    const { claim, payout, proofValid } = claimOf(stake, forge);
    await run({
      label: `claim ${termsOf(stake.slot).kind}`,
      from,
      send: () => world.as(from).write.claim([claim]),
      simulate(m, now) {
        requireStake(m, claim.stake);
        simClaim(m, now, claim.stake, payout, proofValid);
      },
    });
  }

  async function refundOne(stake: StakeModel, from: number) {
    const ref = refOfStake(model, stake);
    await run({
      label: 'refund',
      from,
      send: () => world.as(from).write.refund([ref]),
      simulate(m, now) {
        requireStake(m, ref);
        simRefund(m, now, ref);
      },
    });
  }

  /** A judged market whose settlement is pending (payouts not open yet), if any. */
  const pendingSlot = () =>
    [5, 6].find((slot) => {
      const market = marketOf(model, slot);
      return market.state === STATE.Settled && market.claimableAt > clock + 1;
    });

  /** Time runs to `to` (the next block comes a second later); a live feed publishes on the way. */
  async function advance(to: number, feed: { live: boolean; jitter: number; drift: number[] }) {
    if (feed.live) {
      const instants = slots
        .filter((terms) => terms.kind !== 'judged')
        .flatMap((terms) =>
          [terms.closesAt, terms.decidesAt].map((instant) => ({
            coin: terms.coin,
            at: instant - feed.jitter,
          })),
        )
        .filter(({ at }) => at > clock && at <= to)
        .sort((a, b) => a.at - b.at);
      for (const [index, { coin, at }] of instants.entries()) {
        if (at > clock) await publish(coin, feed.drift[index % feed.drift.length] ?? 0, at);
      }
    }
    if (to > clock) clock = to;
  }

  async function step(action: Action) {
    switch (action.type) {
      case 'deposit': {
        const terms = termsOf(action.slot);
        const bettor = PLAYERS[action.bettor] ?? 4;
        const value = action.amount;
        const market = marketOf(model, action.slot);
        const created = market.state !== STATE.None;
        const ref = refOf(bettor);
        let call: EscrowWrite;
        if (created && (terms.kind !== 'round' || action.viaBet)) {
          call = escrowCall('bet', [keyOf(model, action.slot), action.side, ref]);
        } else if (terms.kind === 'round') {
          call = escrowCall('betRound', [terms.coin, terms.closesAt, terms.decidesAt, action.side, ref]);
        } else if (terms.kind === 'price') {
          call = escrowCall('createPriceMarket', [
            terms.id,
            terms.coin,
            terms.target,
            terms.above,
            terms.closesAt,
            action.side,
            ref,
          ]);
        } else {
          const question = keccak256(toHex(`question ${action.slot}`));
          call = escrowCall('createJudgedMarket', [terms.id, terms.closesAt, question, action.side, ref]);
        }
        await run({
          label: `deposit ${terms.kind}`,
          from: bettor,
          value,
          send: () => sendAs(bettor, call, value),
          simulate(m, now) {
            const into = marketOf(m, action.slot);
            if (into.state === STATE.None) {
              requireCloseInRange(terms.closesAt, now);
              into.key =
                terms.kind === 'round'
                  ? roundKey(terms.coin, terms.closesAt, terms.decidesAt)
                  : createdMarketKey(
                      terms.kind === 'price' ? 'priceMarket' : 'judged',
                      address(bettor),
                      terms.id,
                    );
              into.state = STATE.Open;
            }
            simBet(m, now, action.slot, bettor, value, action.side);
          },
        });
        return;
      }
      case 'publish':
        await publish(action.coin, action.move, clock + action.gap);
        return;
      case 'priceNear': {
        const terms = termsOf(action.slot);
        const instant = action.which === 'lock' && terms.kind === 'round' ? terms.closesAt : terms.decidesAt;
        const at = instant - action.offset;
        await publish(terms.coin, action.move, at > clock ? at : clock + 1);
        return;
      }
      case 'phase': {
        // At most two moves a history: a third phase already puts the first beyond proof.
        if (feeds.phase(action.coin) >= 3) return;
        const { receipts } = await feeds.newPhase(action.coin);
        for (const receipt of receipts) paidGas(receipt);
        count('phase');
        return;
      }
      case 'travel':
        await advance(clock + action.seconds, action.feed);
        return;
      case 'skipTo': {
        const terms = termsOf(action.slot);
        const market = marketOf(model, action.slot);
        const target = {
          closes: terms.closesAt,
          decides: terms.decidesAt,
          claimable: market.claimableAt,
          escape: terms.kind === 'judged' ? settleBy(action.slot, market) : terms.closesAt + ESCAPE_DELAY,
          answerBy: market.answerBy,
        }[action.what];
        if (target > 0) await advance(target + action.offset - 1, action.feed);
        return;
      }
      case 'settlePrice': {
        const terms = termsOf(action.slot);
        const key = keyOf(model, action.slot);
        const lockId = roundIdFor(terms.coin, terms.closesAt, action.lock);
        const closeId = roundIdFor(terms.coin, terms.decidesAt, action.close);
        const from = CALLERS[action.caller] ?? STRANGER;
        const asRound = terms.kind === 'round' ? !action.wrongFunction : action.wrongFunction;
        const receipt = await run({
          label: `settle ${terms.kind}${action.wrongFunction ? ' by the other kind' : ''}`,
          from,
          send: () =>
            asRound
              ? world.as(from).write.settleRound([key, lockId, closeId])
              : world.as(from).write.settlePriceMarket([key, closeId]),
          simulate: (m, now) => simSettlePrice(m, now, action.slot, lockId, closeId, action.wrongFunction),
        });
        if (receipt) await checkReadings(action.slot);
        return;
      }
      case 'operatorOnPrice': {
        const key = keyOf(model, action.slot);
        const hash = keccak256(toHex('verdict'));
        const operator = world.as(OPERATOR).write;
        const stake = pickFrom(
          stakesOf((candidate) => termsOf(candidate.slot).kind !== 'judged'),
          action.stake,
        );
        if (action.what === 'refundStake' && !stake) return;
        const send = {
          settle: () => operator.settle([key, YES, hash, hash, 1n, 0n, PAYOUT_DELAY]),
          settleAsRefund: () => operator.settleAsRefund([key, REFUND.draw, hash]),
          veto: () => world.as(GUARDIAN).write.veto([key]),
          refundStake: () => (stake ? operator.refundStake([refOfStake(model, stake)]) : Promise.reject()),
          withdrawSettlement: () => operator.withdrawSettlement([key]),
        }[action.what];
        await run({
          label: `operator's ${action.what} of a price kind`,
          from: action.what === 'veto' ? GUARDIAN : OPERATOR,
          send,
          simulate(m) {
            if (action.what === 'veto') fail('NotVetoable');
            if ((action.what === 'settle' || action.what === 'settleAsRefund') && m.paused)
              fail('EnforcedPause');
            fail('WrongKind');
          },
        });
        return;
      }
      case 'settleJudged': {
        if (action.wait) await waitUntil(termsOf(action.slot).closesAt);
        const market = marketOf(model, action.slot);
        const key = keyOf(model, action.slot);
        const open = stakesOf((stake) => stake.slot === action.slot && stake.open);
        const bonds = open.filter((stake) => stake.side === 0);
        // The side with bets, if the one drawn has none.
        const outcome = open.some((stake) => stake.side === action.outcome)
          ? action.outcome
          : YES + NO - action.outcome;
        const winners = open.filter((stake) => stake.side === outcome);
        const pool = market.pool;
        const fee = (pool * BigInt(action.feeBps)) / 10_000n;
        let payouts: Payout[] = [];
        let total = 0n;
        if (action.list === 'honest') {
          const returned = action.bondsReturned ? bonds : [];
          const share = pool - fee - returned.reduce((sum, stake) => sum + stake.amount, 0n);
          const winningTotal = winners.reduce((sum, stake) => sum + stake.amount, 0n);
          payouts = [
            ...returned.map((stake) => ({ stakeId: stake.stakeId, amount: stake.amount })),
            ...winners.map((stake) => ({
              stakeId: stake.stakeId,
              amount: (share * stake.amount) / winningTotal,
            })),
          ].filter((payout) => payout.amount > 0n);
          total = payouts.reduce((sum, payout) => sum + payout.amount, 0n);
        } else if (open.length > 0) {
          // A stolen key's list: one stake (two, for a list naming more than its total) takes it all.
          total = pool - fee;
          const takers = action.list === 'overlisted' ? open.slice(0, 2) : open.slice(0, 1);
          payouts = takers.map((stake) => ({ stakeId: stake.stakeId, amount: total }));
        }
        if (payouts.length === 0 || total === 0n) {
          count('settle judged: nothing to list');
          return;
        }
        const tree = buildPayoutTree(payouts);
        trees.set(tree.root, tree);
        const listedFee = action.list === 'poolMismatch' ? pool - total + 1n : pool - total;
        const from = action.byOperator ? OPERATOR : STRANGER;
        const verdict = keccak256(toHex(`verdict ${outcome}`));
        await run({
          label: `settle judged (${action.list})`,
          from,
          send: () =>
            world.as(from).write.settle([key, outcome, verdict, tree.root, total, listedFee, action.delay]),
          simulate(m, now) {
            if (from !== OPERATOR) fail('NotOperator');
            if (m.paused) fail('EnforcedPause');
            const into = judgedSettleable(m, now, action.slot);
            if (now < termsOf(action.slot).closesAt) fail('MarketNotClosed');
            if (total + listedFee !== into.pool) fail('PoolMismatch');
            if (listedFee > (into.pool * MAX_FEE_BPS) / 10_000n) fail('FeeTooHigh');
            if (action.delay < PAYOUT_DELAY || action.delay > MAX_PAYOUT_DELAY) fail('DelayOutOfBounds');
            const draw = total > into.bonds ? total - into.bonds : 0n;
            if (draw > into.drawn) {
              const available = allowance(m, now);
              if (draw - into.drawn > available) fail('SettlementRateLimited');
              m.bucket = { level: available - (draw - into.drawn), updatedAt: now };
              into.drawn = draw;
            }
            into.state = STATE.Settled;
            into.outcome = outcome;
            into.claimableAt = now + action.delay;
            into.payoutTotal = total;
            into.paid = 0n;
            into.fee = listedFee;
            into.root = tree.root;
            into.leaves = new Map(payouts.map((payout) => [payout.stakeId, payout.amount]));
          },
        });
        return;
      }
      case 'voidJudged': {
        const key = keyOf(model, action.slot);
        const from = CALLERS[action.caller] === STRANGER ? STRANGER : OPERATOR;
        await run({
          label: 'void judged',
          from,
          send: () => world.as(from).write.settleAsRefund([key, REFUND.draw, keccak256(toHex('void'))]),
          simulate(m, now) {
            if (from !== OPERATOR) fail('NotOperator');
            if (m.paused) fail('EnforcedPause');
            const into = judgedSettleable(m, now, action.slot);
            into.state = STATE.Refunding;
            into.outcome = REFUND.draw;
            into.payoutTotal = 0n;
            into.fee = 0n;
            into.root = zeroHash;
            into.leaves = new Map();
          },
        });
        return;
      }
      case 'withdrawSettlement': {
        const slot = pendingSlot() ?? action.slot;
        const key = keyOf(model, slot);
        const from = CALLERS[action.caller] === STRANGER ? STRANGER : OPERATOR;
        await run({
          label: 'withdraw settlement',
          from,
          send: () => world.as(from).write.withdrawSettlement([key]),
          simulate(m, now) {
            if (from !== OPERATOR) fail('NotOperator');
            const market = marketOf(m, slot);
            if (market.state === STATE.None) fail('WrongKind');
            if (market.state !== STATE.Settled || now >= market.claimableAt) fail('NotSettleable');
            reopen(market);
          },
        });
        return;
      }
      case 'dispute': {
        // An open stake of a judged market with a settlement pending, if any (else any stake).
        const pending = stakesOf(
          (stake) =>
            stake.open &&
            termsOf(stake.slot).kind === 'judged' &&
            marketOf(model, stake.slot).state === STATE.Settled &&
            marketOf(model, stake.slot).claimableAt > clock + 1,
        );
        if (pending.length === 0 && action.settleFirst) {
          await step({
            type: 'settleJudged',
            slot: action.stake % 2 === 0 ? 5 : 6,
            wait: true,
            byOperator: true,
            outcome: YES,
            list: 'honest',
            bondsReturned: action.stake % 3 === 0,
            feeBps: 100,
            delay: HOUR,
          });
          await check('a settlement to dispute');
          return step({ ...action, settleFirst: false });
        }
        const stake = pickFrom(pending, action.stake) ?? someStake(action.stake);
        if (!stake) return;
        const ref = refOfStake(model, stake);
        const from = action.byOwner
          ? stake.owner
          : (PLAYERS[(PLAYERS.indexOf(stake.owner) + 1) % PLAYERS.length] ?? 4);
        const market = marketOf(model, stake.slot);
        const bond = max(
          DISPUTE_BOND_MIN,
          ((market.pool - market.bonds) * BigInt(DISPUTE_BOND_BPS)) / 10_000n,
        );
        if (termsOf(stake.slot).kind === 'judged')
          expect(await world.read.disputeBond([ref.market])).toBe(bond);
        const value = { exact: bond, weiUnder: bond - 1n, weiOver: bond + 1n, double: 2n * bond }[
          action.bond
        ];
        await run({
          label: 'dispute',
          from,
          value,
          send: () => sendAs(from, escrowCall('dispute', [ref, refOf(from)]), value),
          simulate(m, now) {
            const into = marketOf(m, stake.slot);
            if (termsOf(stake.slot).kind !== 'judged') fail('WrongKind');
            if (into.state !== STATE.Settled || now >= into.claimableAt) fail('NotDisputable');
            if (from !== stake.owner) fail('NotStakeOwner');
            requireStake(m, ref);
            if (into.disputed.includes(from)) fail('AlreadyDisputed');
            if (value !== bond) fail('BondMismatch');
            into.disputed.push(from);
            into.disputes += 1;
            into.bonds += value;
            into.answerBy = Math.max(into.answerBy, now + ANSWER_WINDOW);
            reopen(into);
            into.pool += value;
            recordStake(m, from, stake.slot, value, 0);
          },
        });
        return;
      }
      case 'veto': {
        const slot = pendingSlot() ?? action.slot;
        const key = keyOf(model, slot);
        const from = CALLERS[action.caller] === STRANGER ? STRANGER : GUARDIAN;
        await run({
          label: 'veto',
          from,
          send: () => world.as(from).write.veto([key]),
          simulate(m, now) {
            if (from !== GUARDIAN) fail('NotGuardian');
            const market = marketOf(m, slot);
            if (
              termsOf(slot).kind !== 'judged' ||
              market.state !== STATE.Settled ||
              now >= market.claimableAt
            ) {
              fail('NotVetoable');
            }
            market.state = STATE.Refunding;
            market.payoutTotal = 0n;
            market.fee = 0n;
          },
        });
        return;
      }
      case 'refundStake': {
        // A deposit the server refuses: an open stake of a judged market, a bond first.
        const judgedStakes = stakesOf((stake) => stake.open && termsOf(stake.slot).kind === 'judged');
        const bonds = judgedStakes.filter((stake) => stake.side === 0);
        const stake = pickFrom(
          bonds.length > 0 && action.stake % 2 === 0 ? bonds : judgedStakes,
          action.stake,
        );
        if (!stake) return;
        const ref = refOfStake(model, stake);
        const from = CALLERS[action.caller] === STRANGER ? STRANGER : OPERATOR;
        await run({
          label: 'refund a refused stake',
          from,
          send: () => world.as(from).write.refundStake([ref]),
          simulate(m) {
            if (from !== OPERATOR) fail('NotOperator');
            const market = marketOf(m, stake.slot);
            if (market.state !== STATE.Open && market.state !== STATE.Reopened) fail('MarketNotOpen');
            const open = requireStake(m, ref);
            open.open = false;
            market.pool -= open.amount;
            if (open.side === 0) market.bonds -= open.amount;
            pay(m, open.owner, open.amount);
          },
        });
        return;
      }
      case 'pause': {
        const from = CALLERS[action.caller] === STRANGER ? STRANGER : action.on ? GUARDIAN : ADMIN;
        await run({
          label: action.on ? 'pause' : 'unpause',
          from,
          send: () => (action.on ? world.as(from).write.pause() : world.as(from).write.unpause()),
          simulate(m) {
            if (action.on) {
              if (from !== GUARDIAN && from !== ADMIN) fail('NotGuardian');
              if (m.paused) fail('EnforcedPause');
              m.paused = true;
            } else {
              if (from !== ADMIN) fail('OwnableUnauthorizedAccount');
              if (!m.paused) fail('ExpectedPause');
              m.paused = false;
            }
          },
        });
        return;
      }
      case 'claim': {
        const stake = pickFrom(stakesOf(winning), action.stake) ?? someStake(action.stake);
        if (stake) await claimStake(stake, CALLERS[action.caller] ?? STRANGER, action.forge, action.wait);
        return;
      }
      case 'claimMany': {
        // Winners' stakes and spent ones, in any order and repeated; now and then any stake at all.
        const candidates = action.anyStake
          ? [...model.stakes.values()]
          : [...stakesOf(winning), ...stakesOf((stake) => !stake.open)];
        const picked = action.stakes
          .map((index) => pickFrom(candidates, index))
          .filter((stake): stake is StakeModel => stake !== undefined);
        if (picked.length === 0) return;
        if (action.wait) for (const stake of picked) await waitUntil(marketOf(model, stake.slot).claimableAt);
        const claims = picked.map((stake) => claimOf(stake, 'none'));
        const from = CALLERS[action.caller] ?? STRANGER;
        await run({
          label: 'claimMany',
          from,
          send: () => world.as(from).write.claimMany([claims.map((entry) => entry.claim)]),
          simulate(m, now) {
            for (const { claim, payout, proofValid } of claims) {
              if (isSpent(m, claim.stake)) continue;
              requireStake(m, claim.stake);
              simClaim(m, now, claim.stake, payout, proofValid);
            }
          },
        });
        return;
      }
      case 'refund': {
        const stake = pickFrom(stakesOf(refundable), action.stake) ?? someStake(action.stake);
        if (stake) await refundOne(stake, CALLERS[action.caller] ?? STRANGER);
        return;
      }
      case 'refundMany': {
        const candidates = [...stakesOf(refundable), ...stakesOf((stake) => !stake.open)];
        const refs = action.stakes
          .map((index) => pickFrom(candidates, index))
          .filter((stake): stake is StakeModel => stake !== undefined)
          .map((stake) => refOfStake(model, stake));
        if (refs.length === 0) return;
        const from = CALLERS[action.caller] ?? STRANGER;
        await run({
          label: 'refundMany',
          from,
          send: () => world.as(from).write.refundMany([refs]),
          simulate(m, now) {
            for (const ref of refs) {
              if (isSpent(m, ref)) continue;
              requireStake(m, ref);
              simRefund(m, now, ref);
            }
          },
        });
        return;
      }
      case 'withdraw': {
        const bettor = PLAYERS[action.bettor] ?? 4;
        // An account whose code refuses BNB takes its credit to another of its owner's addresses.
        const to = REFUSES.has(bettor) ? (EOA_BETTORS[action.bettor % EOA_BETTORS.length] ?? 4) : bettor;
        await run({
          label: 'withdraw',
          from: bettor,
          send: () => sendAs(bettor, escrowCall('withdraw', [address(to)])),
          simulate(m) {
            const credit = m.credits.get(bettor) ?? 0n;
            if (credit === 0n) fail('NothingToWithdraw');
            m.credits.set(bettor, 0n);
            m.liabilities -= credit;
            m.escrow -= credit;
            add(m.balances, to, credit);
          },
        });
        return;
      }
      case 'collectFee': {
        const key = keyOf(model, action.slot);
        const from = CALLERS[action.caller] ?? STRANGER;
        await run({
          label: 'collect fee',
          from,
          send: () => world.as(from).write.collectFee([key]),
          simulate(m, now) {
            const market = marketOf(m, action.slot);
            if (market.state !== STATE.Settled || now < market.claimableAt || market.fee === 0n)
              fail('NoFee');
            m.liabilities -= market.fee;
            m.escrow -= market.fee;
            add(m.balances, TREASURY, market.fee);
            market.fee = 0n;
          },
        });
        return;
      }
      case 'force': {
        const value = parseEther('0.01') * BigInt(action.cents);
        await run({
          label: 'force BNB in',
          from: FORCER,
          value,
          send: () =>
            world.walletOf(FORCER).deployContract({
              abi: forceFeederAbi,
              bytecode: forceFeederBytecode,
              args: [world.address],
              value,
            }),
          simulate(m) {
            m.excess += value;
          },
        });
        return;
      }
      case 'sweep': {
        const from = CALLERS[action.caller] ?? STRANGER;
        await run({
          label: 'sweep excess',
          from,
          send: () => world.as(from).write.sweepExcess(),
          simulate(m) {
            if (m.excess === 0n) fail('NoExcess');
            m.escrow -= m.excess;
            add(m.balances, TREASURY, m.excess);
            m.excess = 0n;
          },
        });
        return;
      }
    }
  }

  // ---------------------------------------------------------------- the checks

  /** The readings a price settlement stored are the rounds the model proved. */
  async function checkReadings(slot: number) {
    const terms = termsOf(slot);
    const market = marketOf(model, slot);
    const [lock, close] = await world.read.readings([keyOf(model, slot)]);
    expect(close.roundId).toBe(market.closeRoundId);
    if (terms.kind === 'round') expect(lock.roundId).toBe(market.lockRoundId);
    // Core's own search over the live feed finds the same round, when it lies in the latest phase.
    const proxy = world.feeds[terms.coin]?.proxy ?? '0x';
    const [roundId, answer, , updatedAt] = await world.publicClient.readContract({
      address: proxy,
      abi: devFeedProxyAbi,
      functionName: 'latestRoundData',
    });
    if (updatedAt === 0n) return;
    const right = feeds.roundAt(terms.coin, terms.decidesAt);
    const found = await findCoveringRound({
      latest: { roundId, answer, updatedAtMs: Number(updatedAt) * 1000 },
      instantMs: terms.decidesAt * 1000,
      maxAgeMs: MAX_PRICE_AGE * 1000,
      readRound: async (id) => {
        try {
          const [, roundAnswer, , roundUpdatedAt] = await world.publicClient.readContract({
            address: proxy,
            abi: devFeedProxyAbi,
            functionName: 'getRoundData',
            args: [id],
          });
          return { roundId: id, answer: roundAnswer, updatedAtMs: Number(roundUpdatedAt) * 1000 };
        } catch {
          return null;
        }
      },
    });
    if (right && phaseOf(right.roundId) === phaseOf(roundId)) {
      const judged = judge(right, terms.decidesAt);
      expect(found.found ? found.round.roundId : found.reason).toBe(
        judged.found ? right.roundId : judged.reason,
      );
    } else {
      expect(found).toEqual({ found: false, reason: 'before_history' });
    }
  }

  async function check(label: string) {
    const keys = slots.map((_, slot) => keyOf(model, slot));
    const stakeIds = [...model.stakes.keys()];
    const [
      markets,
      sides,
      judgements,
      liabilities,
      nextStakeId,
      paused,
      available,
      credits,
      balances,
      escrow,
      stakes,
    ] = await Promise.all([
      Promise.all(keys.map((key) => batchRead.markets([key]))),
      Promise.all(keys.map((key) => batchRead.sides([key]))),
      Promise.all(keys.map((key) => batchRead.judgements([key]))),
      batchRead.liabilities(),
      batchRead.nextStakeId(),
      batchRead.paused(),
      batchRead.settlementAllowance(),
      Promise.all(ACCOUNTS.map((index) => batchRead.credits([address(index)]))),
      Promise.all(ACCOUNTS.map((index) => batchClient.getBalance({ address: address(index) }))),
      batchClient.getBalance({ address: world.address }),
      Promise.all(stakeIds.map((stakeId) => batchRead.stakes([stakeId]))),
    ]);
    const where = `after ${label} at ${clock}`;

    // The contract's own numbers: reserves cover what it owes, which is its markets' money and credits.
    let owedByMarkets = 0n;
    for (const [slot, terms] of slots.entries()) {
      const [
        pool,
        closesAt,
        claimableAt,
        kind,
        state,
        outcome,
        coin,
        payoutTotal,
        fee,
        paid,
        winnersClaimed,
      ] = markets[slot] ?? [];
      const [yes, no] = sides[slot] ?? [0n, 0n];
      if (state === undefined || pool === undefined) throw new Error('no market read');
      if (state === STATE.Settled)
        expect(paid, `${where}: market ${slot} paid`).toBeLessThanOrEqual(payoutTotal ?? 0n);
      owedByMarkets += owed(terms.kind, {
        state,
        pool,
        yes,
        no,
        outcome: outcome ?? 0,
        payoutTotal: payoutTotal ?? 0n,
        paid: paid ?? 0n,
        fee: fee ?? 0n,
        winnersClaimed: winnersClaimed ?? 0n,
      });

      // And each market is the model's, field by field (a price kind's outcome is the feed's).
      const market = marketOf(model, slot);
      expect(
        { pool, closesAt, claimableAt, kind, state, outcome, coin, payoutTotal, paid, fee, winnersClaimed },
        `${where}: market ${slot} (${terms.kind})`,
      ).toEqual({
        pool: market.pool,
        closesAt: market.state === STATE.None ? 0 : terms.closesAt,
        claimableAt: market.claimableAt,
        kind: market.state === STATE.None ? KIND.None : kindCode(terms.kind),
        state: market.state,
        outcome: market.outcome,
        coin: market.state !== STATE.None && terms.kind !== 'judged' ? terms.coin : 0,
        payoutTotal: market.payoutTotal,
        paid: market.paid,
        fee: market.fee,
        winnersClaimed: market.winnersClaimed,
      });
      if (terms.kind !== 'judged') expect([yes, no], where).toEqual([market.yes, market.no]);
      else {
        const [, payoutRoot, , bonds, drawn, answerBy, disputes] = judgements[slot] ?? [];
        expect({ payoutRoot, bonds, drawn, answerBy, disputes }, `${where}: judgement ${slot}`).toEqual({
          payoutRoot: market.root,
          bonds: market.bonds,
          drawn: market.drawn,
          answerBy: market.answerBy,
          disputes: market.disputes,
        });
      }
      // No market pays out more than came in.
      const flow = flows.get(keys[slot] ?? '0x');
      if (flow)
        expect(flow.out, `${where}: market ${slot} paid out more than its deposits`).toBeLessThanOrEqual(
          flow.in,
        );
    }
    const creditTotal = credits.reduce((sum, credit) => sum + credit, 0n);
    expect(escrow, where).toBeGreaterThanOrEqual(liabilities);
    expect(liabilities, `${where}: liabilities are the markets' money and the credits`).toBe(
      owedByMarkets + creditTotal,
    );

    // The ledger, the credits, the stakes and every balance are the model's.
    expect({ liabilities, nextStakeId, paused }, where).toEqual({
      liabilities: model.liabilities,
      nextStakeId: model.nextStakeId,
      paused: model.paused,
    });
    expect(available, `${where}: the settlement bucket`).toBe(allowance(model, latestBlock));
    expect(escrow, `${where}: the escrow's balance`).toBe(model.escrow);
    expect(escrow - liabilities, `${where}: only forced-in BNB is above the liabilities`).toBe(model.excess);
    ACCOUNTS.forEach((index, at) => {
      expect(credits[at], `${where}: credit of ${index}`).toBe(model.credits.get(index) ?? 0n);
      expect(balances[at], `${where}: balance of ${index}`).toBe(model.balances.get(index));
    });
    stakeIds.forEach((stakeId, at) => {
      expect(stakes[at] !== zeroHash, `${where}: stake ${stakeId} open`).toBe(
        model.stakes.get(stakeId)?.open,
      );
    });
    for (const [stakeId, times] of exits) expect(times, `stake ${stakeId} left more than once`).toBe(1);
  }

  // ---------------------------------------------------------------- the history

  for (const coin of [BNB, BTC]) await publish(coin, 0, clock + 1);
  await check('the opening prices');
  for (const action of [...input.bets, ...input.actions]) {
    await step(action);
    await check(action.type);
  }

  // Everything that can be paid is paid: far past every deadline, each price kind settled if its feed
  // can prove it, each stake claimed or refunded, each credit withdrawn, each fee collected.
  await advance(clock + 16 * DAY, { live: true, jitter: 10, drift: [1, -1, 0] });
  if (model.paused) {
    await step({ type: 'pause', on: false, caller: CALLERS.indexOf(OPERATOR) });
    await check('unpause');
  }
  for (const [slot, terms] of slots.entries()) {
    if (terms.kind === 'judged' || marketOf(model, slot).state !== STATE.Open) continue;
    const provable = [terms.closesAt, terms.decidesAt].every((instant) => {
      const right = feeds.roundAt(terms.coin, instant);
      return right && phaseOf(right.roundId) >= feeds.phase(terms.coin) - 1;
    });
    if (!provable) continue;
    await step({ type: 'settlePrice', slot, caller: 0, lock: 'right', close: 'right', wrongFunction: false });
    await check('a settlement at the end');
  }
  for (const stake of [...model.stakes.values()]) {
    const open = model.stakes.get(stake.stakeId);
    if (!open?.open) continue;
    if (winning(open)) await claimStake(open, STRANGER, 'none', true);
    else if (refundable(open)) await refundOne(open, STRANGER);
    else continue;
    await check('a payout at the end');
  }
  for (const bettor of PLAYERS) {
    if ((model.credits.get(bettor) ?? 0n) === 0n) continue;
    await step({ type: 'withdraw', bettor: PLAYERS.indexOf(bettor) });
    await check('a withdrawal at the end');
  }
  for (const [slot] of slots.entries()) {
    if (marketOf(model, slot).fee === 0n) continue;
    await step({ type: 'collectFee', slot, caller: 0 });
    await check('a fee at the end');
  }
  if (model.excess > 0n) {
    await step({ type: 'sweep', caller: 0 });
    await check('the sweep at the end');
  }
  // Nothing is left owed, nor left in the contract: no wei stuck.
  expect(model.liabilities).toBe(0n);
  expect(await world.read.liabilities()).toBe(0n);
  expect(await world.publicClient.getBalance({ address: world.address })).toBe(0n);
}

test('no history of deposits, feed updates, settlements, disputes, vetoes, pauses, claims, refunds and fees breaks the escrow’s guarantees', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        targets: fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 })),
        // Bets first, so most histories have money to settle, claim and refund: one into each market,
        // then more.
        bets: fc
          .tuple(
            fc.array(
              fc.record({
                bettor: player,
                side: fc.constantFrom(YES, NO),
                cents: fc.integer({ min: 1, max: 60 }),
              }),
              {
                minLength: 7,
                maxLength: 7,
              },
            ),
            fc.array(depositArbitrary, { minLength: 2, maxLength: 10 }),
          )
          .map(([seeds, more]) => [
            ...seeds.map(
              (seed, slot): Action => ({
                type: 'deposit',
                bettor: seed.bettor,
                slot,
                amount: parseEther('0.01') * BigInt(seed.cents),
                side: seed.side,
                viaBet: false,
              }),
            ),
            ...more,
          ]),
        actions: fc.array(actionArbitrary, { minLength: 10, maxLength: STEPS }),
      }),
      runHistory,
    ),
    { numRuns: RUNS, endOnFailure: true },
  );
  console.log('actions over all histories:', Object.fromEntries([...tally].sort()));
  expect([...tally.keys()].some((label) => label.startsWith('deposit') && label.endsWith(': ok'))).toBe(true);
}, 900_000);
