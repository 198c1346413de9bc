import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  getContract,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
} from 'viem';
import { expect } from 'vitest';
import { type DevFeed, deployDevFeed } from '../src/deploy-dev-feed.ts';
import { devFeedAggregatorAbi } from '../src/dev-feeds.gen.ts';
import { marketEscrowAbi, marketEscrowBytecode } from '../src/market-escrow.gen.ts';
import { createdMarketKey, roundKey } from '../src/market-escrow-keys.ts';
import { buildPayoutTree, type Payout } from '../src/payout-tree.ts';
import { devAccount, startChainClients } from './chain-clients.ts';

// A Hardhat node with MarketEscrow deployed over dev feeds (one Chainlink-compatible proxy and
// aggregator per coin), and the clients to drive it as each role: bettors, the feed's writer, anyone
// settling a price kind, the operator, the guardian.

/** `MarketEscrow.State` and `Kind` by name. */
export const STATE = { None: 0, Open: 1, Settled: 2, Reopened: 3, Refunding: 4 } as const;
export const KIND = { None: 0, Round: 1, PriceMarket: 2, Judged: 3 } as const;
/** Sides and the price kinds' refund outcomes. */
export const YES = 1;
export const NO = 2;
export const REFUND = { draw: 3, noWinner: 4, stale: 5, notPositive: 6 } as const;

/** The node's accounts by role; bettors are 4..13. */
export const ADMIN = 0;
export const OPERATOR = 1;
export const GUARDIAN = 2;
export const TREASURY = 3;
export const BETTORS = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;
export const FEED_WRITER = 14;
export const STRANGER = 15;

/** Coins the world's deployment has feeds for, by index. */
export const COINS = ['BNB', 'BTC'] as const;
export const BNB = 0;
export const BTC = 1;

export const MINUTE = 60;
export const HOUR = 3600;
export const DAY = 86_400;
export const ESCAPE_DELAY = 7 * DAY;
export const ANSWER_WINDOW = DAY;
export const MAX_PRICE_AGE = 120;
export const PAYOUT_DELAY = 600;
export const DISPUTE_BOND_MIN = parseEther('0.01');
export const DISPUTE_BOND_BPS = 500;

export type StakeRef = { stakeId: bigint; owner: Address; market: Hex; amount: bigint; side: number };

export type WorldOptions = {
  capacity?: bigint;
  refillPerHour?: bigint;
  roundFeeBps?: number;
  priceMarketFeeBps?: number;
};

/** A price the feed published: its round id through the proxy, answer and block time. */
export type PublishedRound = { roundId: bigint; answer: bigint; updatedAt: number };

export async function createMarketEscrowWorld(options: WorldOptions = {}) {
  const { node, publicClient, testClient, walletOf, mined } = await startChainClients({
    pollingInterval: 20,
  });

  const feeds: DevFeed[] = [];
  for (const symbol of COINS) {
    feeds.push(
      await deployDevFeed(walletOf(ADMIN), publicClient, { symbol, writer: devAccount(FEED_WRITER).address }),
    );
  }
  const deployment = await mined(
    walletOf(ADMIN).deployContract({
      abi: marketEscrowAbi,
      bytecode: marketEscrowBytecode,
      args: [
        {
          admin: devAccount(ADMIN).address,
          operator: devAccount(OPERATOR).address,
          guardian: devAccount(GUARDIAN).address,
          treasury: devAccount(TREASURY).address,
          settlementCapacity: options.capacity ?? parseEther('100'),
          settlementRefillPerHour: options.refillPerHour ?? parseEther('100'),
          minPayoutDelay: PAYOUT_DELAY,
          disputeBondMin: DISPUTE_BOND_MIN,
          disputeBondBps: DISPUTE_BOND_BPS,
          roundFeeBps: options.roundFeeBps ?? 300,
          priceMarketFeeBps: options.priceMarketFeeBps ?? 200,
          maxPriceAge: MAX_PRICE_AGE,
          feeds: feeds.map((feed) => feed.proxy),
        },
      ],
    }),
  );
  if (!deployment.contractAddress) throw new Error('no contract address');
  const address = deployment.contractAddress;

  const as = (index: number) =>
    getContract({ address, abi: marketEscrowAbi, client: { public: publicClient, wallet: walletOf(index) } });
  const read = as(ADMIN).read;

  /** Every round each coin's feed published, in order. */
  const published: PublishedRound[][] = COINS.map(() => []);

  async function now(): Promise<number> {
    return Number((await publicClient.getBlock()).timestamp);
  }

  /** Moves the chain's clock `seconds` on and mines a block there. */
  async function travel(seconds: number) {
    await testClient.increaseTime({ seconds });
    await testClient.mine({ blocks: 1 });
  }

  /** Mines the next block at exactly `timestamp` (it must be after the latest). */
  async function travelTo(timestamp: number) {
    await testClient.setNextBlockTimestamp({ timestamp: BigInt(timestamp) });
    await testClient.mine({ blocks: 1 });
  }

  /** Publishes `answer` (8 decimals) to `coin`'s feed in the next block, at `at` if given. */
  async function publish(coin: number, answer: bigint, at?: number): Promise<PublishedRound> {
    if (at !== undefined) await testClient.setNextBlockTimestamp({ timestamp: BigInt(at) });
    const receipt = await mined(
      walletOf(FEED_WRITER).writeContract({
        address: feeds[coin]?.aggregator ?? '0x',
        abi: devFeedAggregatorAbi,
        functionName: 'publish',
        args: [answer],
      }),
    );
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const rounds = published[coin] ?? [];
    // Phase 1 throughout: the proxy's id is (1 << 64) | the aggregator's round.
    const round = {
      roundId: (1n << 64n) | BigInt(rounds.length + 1),
      answer,
      updatedAt: Number(block.timestamp),
    };
    rounds.push(round);
    return round;
  }

  /** The round of `coin` in force at `instant` (the last updated at or before it), as anyone finds it. */
  function roundAt(coin: number, instant: number): PublishedRound {
    const rounds = (published[coin] ?? []).filter((round) => round.updatedAt <= instant);
    const round = rounds.at(-1);
    if (!round) throw new Error(`no round of coin ${coin} at ${instant}`);
    return round;
  }

  /** A round of `coin` locking `lockIn` seconds from the chain's now, `span` seconds long. */
  async function nextRound(coin = BNB, lockIn = 5 * MINUTE, span = 5 * MINUTE) {
    const lockAt = (await now()) + lockIn;
    const closeAt = lockAt + span;
    return { coin, lockAt, closeAt, key: roundKey(coin, lockAt, closeAt) };
  }

  type Round = Awaited<ReturnType<typeof nextRound>>;

  async function betRound(bettor: number, round: Round, side: number, amount: bigint): Promise<StakeRef> {
    return stakeOf(
      await mined(
        as(bettor).write.betRound([round.coin, round.lockAt, round.closeAt, side, refOf(bettor)], {
          value: amount,
        }),
      ),
    );
  }

  /** A price market `creator` creates with its first bet; answers its key and that stake. */
  async function createPriceMarket(
    creator: number,
    terms: {
      coin?: number;
      target: bigint;
      above?: boolean;
      closesIn?: number;
      side?: number;
      amount?: bigint;
    },
  ) {
    const id = keccak256(toHex(`price market ${Math.random()}`));
    const closesAt = (await now()) + (terms.closesIn ?? HOUR);
    const receipt = await mined(
      as(creator).write.createPriceMarket(
        [
          id,
          terms.coin ?? BTC,
          terms.target,
          terms.above ?? true,
          closesAt,
          terms.side ?? YES,
          refOf(creator),
        ],
        { value: terms.amount ?? parseEther('0.01') },
      ),
    );
    const key = createdMarketKey('priceMarket', devAccount(creator).address, id);
    return { id, key, closesAt, coin: terms.coin ?? BTC, stake: stakeOf(receipt), receipt };
  }

  /** A judged market `creator` creates with its first bet. */
  async function createJudgedMarket(
    creator: number,
    terms: { closesIn?: number; side?: number; amount?: bigint } = {},
  ) {
    const id = keccak256(toHex(`judged market ${Math.random()}`));
    const closesAt = (await now()) + (terms.closesIn ?? HOUR);
    const contentHash = keccak256(toHex(`question ${id}`));
    const receipt = await mined(
      as(creator).write.createJudgedMarket([id, closesAt, contentHash, terms.side ?? YES, refOf(creator)], {
        value: terms.amount ?? parseEther('0.01'),
      }),
    );
    const key = createdMarketKey('judged', devAccount(creator).address, id);
    return { id, key, closesAt, contentHash, stake: stakeOf(receipt), receipt };
  }

  async function bet(bettor: number, key: Hex, side: number, amount: bigint): Promise<StakeRef> {
    return stakeOf(await mined(as(bettor).write.bet([key, side, refOf(bettor)], { value: amount })));
  }

  /** A dispute by the owner of `stake` with a bond of `amount` (the market's `disputeBond` by default). */
  async function dispute(stake: StakeRef, amount?: bigint) {
    const ownerIndex = indexOf(stake.owner);
    const bond = amount ?? (await read.disputeBond([stake.market]));
    const receipt = await mined(as(ownerIndex).write.dispute([stake, refOf(ownerIndex)], { value: bond }));
    const [event] = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Disputed' });
    if (!event) throw new Error('no Disputed event');
    return { bond: stakeOf(receipt), disputes: event.args.disputes, answerBy: event.args.answerBy, receipt };
  }

  /** Settles a round from the feed's rounds in force at its lock and close, as `caller`. */
  async function settleRound(
    round: { key: Hex; coin: number; lockAt: number; closeAt: number },
    caller = STRANGER,
  ) {
    const lock = roundAt(round.coin, round.lockAt);
    const close = roundAt(round.coin, round.closeAt);
    return mined(as(caller).write.settleRound([round.key, lock.roundId, close.roundId]));
  }

  async function settlePriceMarket(market: { key: Hex; coin: number; closesAt: number }, caller = STRANGER) {
    const reading = roundAt(market.coin, market.closesAt);
    return mined(as(caller).write.settlePriceMarket([market.key, reading.roundId]));
  }

  /** Settles a judged market with this payout list (fee = pool − total), as the operator. */
  async function settleJudged(
    key: Hex,
    payouts: Payout[],
    options: { delay?: number; outcome?: number } = {},
  ) {
    const tree = buildPayoutTree(payouts);
    const { pool } = await marketOf(key);
    const receipt = await mined(
      as(OPERATOR).write.settle([
        key,
        options.outcome ?? YES,
        keccak256(toHex(`verdict of ${key}`)),
        tree.root,
        tree.total,
        pool - tree.total,
        options.delay ?? PAYOUT_DELAY,
      ]),
    );
    return { tree, receipt };
  }

  /** A price kind's claim: it names no payout (the contract computes it). */
  const priceClaim = (stake: StakeRef) => ({ stake, payout: 0n, proof: [] as Hex[] });

  async function marketOf(key: Hex) {
    const [pool, closesAt, claimableAt, kind, state, outcome, coin, payoutTotal, fee, paid, winnersClaimed] =
      await read.markets([key]);
    return {
      pool,
      closesAt,
      claimableAt,
      kind,
      state,
      outcome,
      coin,
      payoutTotal,
      paid,
      fee,
      winnersClaimed,
    };
  }

  async function balance(index: number): Promise<bigint> {
    return publicClient.getBalance({ address: devAccount(index).address });
  }

  return {
    node,
    publicClient,
    testClient,
    walletOf,
    mined,
    address,
    feeds,
    as,
    read,
    published,
    now,
    travel,
    travelTo,
    publish,
    roundAt,
    nextRound,
    betRound,
    createPriceMarket,
    createJudgedMarket,
    bet,
    dispute,
    settleRound,
    settlePriceMarket,
    settleJudged,
    priceClaim,
    market: marketOf,
    balance,
    stop: () => node.stop(),
  };
}

export type MarketEscrowWorld = Awaited<ReturnType<typeof createMarketEscrowWorld>>;

/** A deposit's client reference: the bettor's index, so a test can tell deposits apart. */
export const refOf = (index: number): Hex => toHex(index, { size: 32 });

/** The dev account index of an address among the first 20. */
export function indexOf(owner: Address): number {
  for (let i = 0; i < 20; i += 1) if (devAccount(i).address.toLowerCase() === owner.toLowerCase()) return i;
  throw new Error(`${owner} is not a dev account`);
}

/** The stake a deposit's receipt records (its `Deposited` event). */
export function stakeOf(receipt: TransactionReceipt): StakeRef {
  const [event] = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
  if (!event) throw new Error('no Deposited event');
  return {
    stakeId: event.args.stakeId,
    owner: event.args.owner,
    market: event.args.market,
    amount: event.args.amount,
    side: event.args.side,
  };
}

/** Fails unless `action` reverts with the contract's custom error `errorName` (and `args`, if given). */
export async function expectRevert(action: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
  const error = await action.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected ${errorName}, but it succeeded`).toBeInstanceOf(BaseError);
  if (!(error instanceof BaseError)) return;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  const name = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
  expect(name ?? rawRevertName(error) ?? error.shortMessage).toBe(errorName);
  if (args && reverted instanceof ContractFunctionRevertedError) expect(reverted.data?.args).toEqual(args);
}

/**
 * The custom error of a call that names no function (a plain transfer, a constructor): viem leaves it
 * undecoded and the node quotes its return data.
 */
function rawRevertName(error: BaseError): string | undefined {
  const data = /return data: (0x[0-9a-f]+)/.exec(error.message)?.[1];
  if (!data) return undefined;
  try {
    return decodeErrorResult({ abi: marketEscrowAbi, data: `0x${data.slice(2)}` }).errorName;
  } catch {
    return undefined;
  }
}
