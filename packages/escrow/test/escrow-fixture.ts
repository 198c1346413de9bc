import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  getContract,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
} from 'viem';
import { expect } from 'vitest';
import { depositArgs } from '../src/deposit-terms.ts';
import { marketKey } from '../src/market-key.ts';
import { buildPayoutTree, type Payout } from '../src/payout-tree.ts';
import { predictionEscrowAbi, predictionEscrowBytecode } from '../src/prediction-escrow.gen.ts';
import { devAccount, startChainClients } from './chain-clients.ts';

/** `State` of the contract's markets. */
export const STATE = { None: 0, Open: 1, Settled: 2, Refunding: 3 } as const;

/** The node's accounts by role; bettors are 4..19. */
export const ADMIN = 0;
export const OPERATOR = 1;
export const GUARDIAN = 2;
export const TREASURY = 3;
export const BETTORS = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;

export type StakeRef = { stakeId: bigint; owner: Address; market: Hex; amount: bigint };

export type EscrowOptions = {
  capacity?: bigint;
  refillPerHour?: bigint;
  minPayoutDelay?: number;
  disputeBondMin?: bigint;
  disputeBondBps?: number;
};

/** The deployment's dispute bond unless a test says otherwise: the product's flag bond defaults. */
export const DISPUTE_BOND_MIN = parseEther('0.01');
export const DISPUTE_BOND_BPS = 500;

export const HOUR = 3600;
export const DAY = 86_400;
export const ESCAPE_DELAY = 7 * DAY;

/** A Hardhat node with the escrow deployed by the admin, and the clients to drive it as each role. */
export async function createEscrowWorld() {
  const { node, publicClient, testClient, walletOf, mined } = await startChainClients({
    pollingInterval: 50,
  });

  async function deployEscrow(options: EscrowOptions = {}): Promise<Address> {
    const receipt = await mined(
      walletOf(ADMIN).deployContract({
        abi: predictionEscrowAbi,
        bytecode: predictionEscrowBytecode,
        args: [
          devAccount(ADMIN).address,
          devAccount(OPERATOR).address,
          devAccount(GUARDIAN).address,
          devAccount(TREASURY).address,
          options.capacity ?? parseEther('100'),
          options.refillPerHour ?? parseEther('100'),
          options.minPayoutDelay ?? 600,
          options.disputeBondMin ?? DISPUTE_BOND_MIN,
          options.disputeBondBps ?? DISPUTE_BOND_BPS,
        ],
      }),
    );
    if (!receipt.contractAddress) throw new Error('no contract address');
    return receipt.contractAddress;
  }

  const escrowAt = (address: Address, index: number) =>
    getContract({
      address,
      abi: predictionEscrowAbi,
      client: { public: publicClient, wallet: walletOf(index) },
    });

  const address = await deployEscrow();
  const as = (index: number) => escrowAt(address, index);
  const read = as(ADMIN).read;

  /** A market's record by name (the `markets` getter answers its fields in declaration order). */
  async function marketOf(key: Hex, escrow: Address = address) {
    const [
      pool,
      closesAt,
      claimableAt,
      state,
      outcome,
      disputes,
      payoutRoot,
      payoutTotal,
      paid,
      fee,
      verdictHash,
    ] = await escrowAt(escrow, ADMIN).read.markets([key]);
    return {
      pool,
      closesAt,
      claimableAt,
      state,
      outcome,
      disputes,
      payoutRoot,
      payoutTotal,
      paid,
      fee,
      verdictHash,
    };
  }

  async function now(): Promise<number> {
    return Number((await publicClient.getBlock()).timestamp);
  }

  async function travel(seconds: number) {
    await testClient.increaseTime({ seconds });
    await testClient.mine({ blocks: 1 });
  }

  /** A market closing `closesIn` seconds from the chain's now. */
  async function openMarket(name: string, closesIn = HOUR) {
    const id = keccak256(toHex(name));
    const closesAt = (await now()) + closesIn;
    return { id, closesAt, key: marketKey(id, closesAt) };
  }

  async function deposit(
    bettor: number,
    market: { id: Hex; closesAt: number },
    amount: bigint,
    side = 1,
    escrow: Address = address,
  ): Promise<StakeRef> {
    const receipt = await mined(
      escrowAt(escrow, bettor).write.deposit(
        [market.id, market.closesAt, 1, side, toHex(7, { size: 32 }), toHex(bettor, { size: 32 })],
        {
          value: amount,
        },
      ),
    );
    return stakeOf(receipt);
  }

  /**
   * A flag's bond of `amount` into `market`, whose settlement is pending: a dispute. Answers the stake
   * and the market's dispute count after it (from the `Disputed` event).
   */
  async function dispute(
    bettor: number,
    market: { id: Hex; closesAt: number },
    amount: bigint,
  ): Promise<{ stake: StakeRef; disputes: number; receipt: TransactionReceipt }> {
    const receipt = await mined(
      as(bettor).write.deposit(depositArgs({ kind: 'flag', market: market.id, closesAt: market.closesAt }), {
        value: amount,
      }),
    );
    const stake = stakeOf(receipt);
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Disputed' });
    if (!event) throw new Error('no Disputed event');
    expect(event.args).toMatchObject({ market: stake.market, stakeId: stake.stakeId });
    return { stake, disputes: event.args.disputes, receipt };
  }

  /** Settle `market` with this payout list (fee = pool − total), as the operator. */
  async function settle(market: Hex, payouts: Payout[], options: { delay?: number; outcome?: number } = {}) {
    const tree = buildPayoutTree(payouts);
    const { pool } = await marketOf(market);
    const receipt = await mined(
      as(OPERATOR).write.settle([
        market,
        options.outcome ?? 1,
        keccak256(toHex(`verdict of ${market}`)),
        tree.root,
        tree.total,
        pool - tree.total,
        options.delay ?? 600,
      ]),
    );
    return { tree, receipt };
  }

  return {
    node,
    publicClient,
    testClient,
    walletOf,
    address,
    as,
    read,
    escrowAt,
    market: marketOf,
    deployEscrow,
    mined,
    now,
    travel,
    openMarket,
    deposit,
    dispute,
    settle,
    stop: () => node.stop(),
  };
}

export type EscrowWorld = Awaited<ReturnType<typeof createEscrowWorld>>;

/** The stake a deposit's receipt records (its `Deposited` event). */
export function stakeOf(receipt: TransactionReceipt): StakeRef {
  const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
  if (!event) throw new Error('no Deposited event');
  return {
    stakeId: event.args.stakeId,
    owner: event.args.owner,
    market: event.args.market,
    amount: event.args.amount,
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
  expect(name ?? error.shortMessage).toBe(errorName);
  if (args && reverted instanceof ContractFunctionRevertedError) expect(reverted.data?.args).toEqual(args);
}
