import { type Address, getAddress, type Hash, keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type BetTerms,
  DEPOSIT_WEI,
  expectCode,
  nodeRewriting,
  playerOf,
  stakeIdsOf as stakeIdsIn,
  startDepositChain,
} from '../../../test/support/deposit-chain.ts';
import {
  deployBatchAccount,
  deployEscrow,
  deposit,
  depositCall,
  executeBatch,
} from '../../../test/support/escrow-contracts.ts';
import { createFaultyChainClient } from '../../../test/support/faulty-chain.ts';
import type { TestChain } from '../../../test/support/test-chain.ts';
import { type DepositScanDeps, scanFinalDeposits } from './scan-deposits.ts';

const amountWei = DEPOSIT_WEI;

let chain: TestChain;
let escrow: Address;
let deps: DepositScanDeps;
let bet: BetTerms;

beforeAll(async () => {
  ({ chain, escrow, bet } = await startDepositChain());
  deps = { client: chain.publicClient, escrowAddress: escrow, confirmations: 1 };
});
afterAll(() => chain?.stop());

const player = (index: number) => playerOf(chain, index);
const stakeIdsOf = (txHash: Hash) => stakeIdsIn(chain, txHash);
const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 });

/** A client whose node answers `eth_getLogs` through `change`; every other call as it is. */
const nodeChangingLogs = (change: (logs: Array<Record<string, unknown>>) => unknown[]) =>
  nodeRewriting(chain, 'eth_getLogs', (logs) => change(logs as Array<Record<string, unknown>>));

describe('scanFinalDeposits', () => {
  test('every deposit of the escrow in the range, in chain order, read at most maxBlockSpan blocks a call', async () => {
    const fromBlock = (await head()) + 1n;
    const account = await deployBatchAccount(chain, player(0));
    const other = await deployEscrow(chain);
    const stakes = [...(await stakeIdsOf(await deposit(player(0), escrow, bet, amountWei)))];
    await stakeIdsOf(await deposit(player(1), other, bet, amountWei));
    await chain.testClient.mine({ blocks: 2 });
    // One block holding two transactions, one of them a batch of two deposits.
    await chain.testClient.setAutomine(false);
    let single: Hash;
    let batch: Hash;
    try {
      single = await deposit(player(1), escrow, bet, amountWei);
      batch = await executeBatch(player(0), account, [
        depositCall(escrow, bet, amountWei),
        depositCall(escrow, { ...bet, prediction: 'NO' }, 2n * amountWei),
      ]);
      await chain.testClient.mine({ blocks: 1 });
    } finally {
      await chain.testClient.setAutomine(true);
    }
    stakes.push(...(await stakeIdsOf(single)), ...(await stakeIdsOf(batch)));
    stakes.sort((a, b) => (a < b ? -1 : 1));
    const toBlock = await head();

    const rpc = createFaultyChainClient(chain.rpcUrl);
    const scan = await scanFinalDeposits(
      { ...deps, client: rpc.client, maxBlockSpan: 2 },
      { fromBlock, toBlock },
    );

    expect(scan.scannedTo).toBe(toBlock);
    // Stake ids are handed out in execution order: chain order is their order.
    expect(scan.deposits.map((each) => each.stakeId)).toEqual(stakes);
    const blocks = Number(toBlock - fromBlock + 1n);
    expect(rpc.calls('eth_getLogs')).toBe(Math.ceil(blocks / 2));
    const last = scan.deposits.at(-1);
    const lastReceipt = await chain.publicClient.getTransactionReceipt({ hash: batch });
    const lastBlock = await chain.publicClient.getBlock({ blockNumber: lastReceipt.blockNumber });
    expect(last).toMatchObject({
      txHash: batch,
      owner: getAddress(account),
      amountWei: 2n * amountWei,
      blockNumber: lastReceipt.blockNumber,
      blockHash: lastReceipt.blockHash,
      blockTime: new Date(Number(lastBlock.timestamp) * 1000),
    });
  });

  test('nothing past the final height is scanned, and it is once final', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const [stake] = await stakeIdsOf(txHash);
    const top = await head();
    const strict = { ...deps, confirmations: 3 };

    const early = await scanFinalDeposits(strict, { fromBlock: top - 5n, toBlock: top });
    expect(early.scannedTo).toBe(top - 2n);
    expect(early.deposits.map((each) => each.stakeId)).not.toContain(stake);
    expect(await scanFinalDeposits(strict, { fromBlock: top, toBlock: top })).toEqual({
      deposits: [],
      scannedTo: null,
      finalHeight: top - 2n,
    });

    // Two blocks on, the deposit's block is three deep: final, and the last block final.
    await chain.testClient.mine({ blocks: 2 });
    const later = await scanFinalDeposits(strict, { fromBlock: top, toBlock: top + 10n });
    expect(later.scannedTo).toBe(top);
    expect(later.deposits.map((each) => each.stakeId)).toEqual([stake]);
  });

  test('a deposit reorged out is not scanned', async () => {
    const fromBlock = (await head()) + 1n;
    const snapshot = await chain.testClient.snapshot();
    const gone = await deposit(player(0), escrow, bet, amountWei);
    await stakeIdsOf(gone);
    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    const kept = await deposit(player(1), escrow, bet, amountWei);
    await stakeIdsOf(kept);

    const scan = await scanFinalDeposits(deps, { fromBlock, toBlock: await head() });
    expect(scan.deposits.map((each) => each.txHash)).toEqual([kept]);
  });

  test('a log the node marks removed is ignored', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const { blockNumber } = await chain.publicClient.getTransactionReceipt({ hash: txHash });
    const removing = nodeChangingLogs((logs) => logs.map((log) => ({ ...log, removed: true })));
    const range = { fromBlock: blockNumber, toBlock: blockNumber };
    expect((await scanFinalDeposits(deps, range)).deposits).toHaveLength(1);
    expect((await scanFinalDeposits({ ...deps, client: removing }, range)).deposits).toEqual([]);
  });

  test('a log naming a block that is not the canonical one at its height fails the scan, to be retried', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const { blockNumber } = await chain.publicClient.getTransactionReceipt({ hash: txHash });
    // A node on another fork: its log names a block the chain does not have at that height.
    const forked = nodeChangingLogs((logs) => logs.map((log) => ({ ...log, blockHash: keccak256('0xf0') })));
    await expectCode(
      scanFinalDeposits({ ...deps, client: forked }, { fromBlock: blockNumber, toBlock: blockNumber }),
      'CHAIN_UNAVAILABLE',
    );
  });

  test.each(['eth_getLogs', 'eth_getBlockByNumber', 'eth_blockNumber'])(
    'an RPC failing %s is CHAIN_UNAVAILABLE',
    async (method) => {
      const txHash = await deposit(player(0), escrow, bet, amountWei);
      const { blockNumber } = await chain.publicClient.getTransactionReceipt({ hash: txHash });
      const rpc = createFaultyChainClient(chain.rpcUrl);
      rpc.fail(method);
      const range = { fromBlock: blockNumber, toBlock: blockNumber };
      await expectCode(scanFinalDeposits({ ...deps, client: rpc.client }, range), 'CHAIN_UNAVAILABLE');
      rpc.heal();
      expect((await scanFinalDeposits({ ...deps, client: rpc.client }, range)).deposits).toHaveLength(1);
    },
  );
});
