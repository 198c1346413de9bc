import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getContract,
  type Hash,
  type Hex,
  http,
  keccak256,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { expect } from 'vitest';
import { marketKey } from '../src/market-key.ts';
import { buildPayoutTree, type Payout } from '../src/payout-tree.ts';
import { predictionEscrowAbi, predictionEscrowBytecode } from '../src/prediction-escrow.gen.ts';
import { startHardhatNode } from './hardhat-node.ts';

export const MNEMONIC = 'test test test test test test test test test test test junk';
export const devAccount = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index });

/** The node's accounts by role; bettors are 4..19. */
export const ADMIN = 0;
export const OPERATOR = 1;
export const GUARDIAN = 2;
export const TREASURY = 3;
export const BETTORS = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;

export type StakeRef = { stakeId: bigint; owner: Address; market: Hex; amount: bigint };

export type EscrowOptions = { capacity?: bigint; refillPerHour?: bigint; minPayoutDelay?: number };

export const HOUR = 3600;
export const DAY = 86_400;
export const ESCAPE_DELAY = 7 * DAY;

/** A Hardhat node with the escrow deployed by the admin, and the clients to drive it as each role. */
export async function createEscrowWorld() {
  const node = await startHardhatNode();
  const transport = http(node.rpcUrl);
  const publicClient = createPublicClient({ chain: hardhat, transport, pollingInterval: 50 });
  const testClient = createTestClient({ chain: hardhat, mode: 'hardhat', transport });
  const walletOf = (index: number) =>
    createWalletClient({ chain: hardhat, transport, account: devAccount(index) });

  async function mined(hash: Promise<Hash> | Hash): Promise<TransactionReceipt> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`);
    return receipt;
  }

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
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
    if (!event) throw new Error('no Deposited event');
    return {
      stakeId: event.args.stakeId,
      owner: event.args.owner,
      market: event.args.market,
      amount: event.args.amount,
    };
  }

  /** Settle `market` with this payout list (fee = pool − total), as the operator. */
  async function settle(market: Hex, payouts: Payout[], options: { delay?: number; outcome?: number } = {}) {
    const tree = buildPayoutTree(payouts);
    const [pool] = await read.markets([market]);
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
    deployEscrow,
    mined,
    now,
    travel,
    openMarket,
    deposit,
    settle,
    stop: () => node.stop(),
  };
}

export type EscrowWorld = Awaited<ReturnType<typeof createEscrowWorld>>;

/** Fails unless `action` reverts with the contract's custom error `errorName`. */
export async function expectRevert(action: Promise<unknown>, errorName: string) {
  const error = await action.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected ${errorName}, but it succeeded`).toBeInstanceOf(BaseError);
  if (!(error instanceof BaseError)) return;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  const name = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
  expect(name ?? error.shortMessage).toBe(errorName);
}
