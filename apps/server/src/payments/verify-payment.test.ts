import { encodeIntent, type PaymentIntent } from '@pm/core/intent';
import {
  createPublicClient,
  custom,
  type Hash,
  http,
  keccak256,
  parseEther,
  toHex,
  type WalletClient,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFaultyChainClient } from '../../test/support/faulty-chain.ts';
import { localChain, startTestChain, type TestChain } from '../../test/support/test-chain.ts';
import { DEV_VAULT } from '../config/dev-accounts.ts';
import { AppError } from '../errors/app-error.ts';
import { type PaymentVerifierDeps, verifyPayment } from './verify-payment.ts';

const betIntent: PaymentIntent = { kind: 'bet', marketId: 7, prediction: 'YES' };
const amountWei = parseEther('0.01');

let chain: TestChain;
let deps: PaymentVerifierDeps;

beforeAll(async () => {
  chain = await startTestChain();
  deps = {
    client: chain.publicClient,
    chainId: 31337,
    vaultAddress: DEV_VAULT.address,
    confirmations: 1,
    waitMs: 300,
    pollMs: 50,
  };
});
afterAll(() => chain?.stop());

async function pay(
  wallet: WalletClient,
  overrides: { to?: `0x${string}`; value?: bigint; data?: `0x${string}` | undefined; gas?: bigint } = {},
): Promise<Hash> {
  const account = wallet.account;
  if (!account) throw new Error('wallet without account');
  return wallet.sendTransaction({
    account,
    chain: wallet.chain,
    to: overrides.to ?? DEV_VAULT.address,
    value: overrides.value ?? amountWei,
    data: 'data' in overrides ? overrides.data : encodeIntent(betIntent),
    ...(overrides.gas ? { gas: overrides.gas } : {}),
  });
}

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error instanceof AppError && error.code).toBe(code);
}

function claimFor(txHash: Hash, overrides: Partial<Parameters<typeof verifyPayment>[1]> = {}) {
  const from = chain.players[0]?.account.address;
  if (!from) throw new Error('no player');
  return { txHash, from, amountWei, intent: betIntent, ...overrides };
}

describe('verifyPayment', () => {
  test('a transfer to the vault with the right sender, amount and intent is verified with its block time', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player);
    const result = await verifyPayment(deps, claimFor(txHash, { from: player.account.address }));
    expect(result.status).toBe('verified');
    if (result.status !== 'verified') return;
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: txHash });
    const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(result.payment.amountWei).toBe(amountWei);
    expect(result.payment.blockNumber).toBe(receipt.blockNumber);
    expect(result.payment.blockTime.getTime()).toBe(Number(block.timestamp) * 1000);
    expect(result.payment.intentText).toBe('pm1:bet:7:YES');
  });

  test('the claimed sender is matched case-insensitively', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player);
    const upper = `0x${player.account.address.slice(2).toUpperCase()}` as const;
    const result = await verifyPayment(deps, claimFor(txHash, { from: upper }));
    expect(result.status).toBe('verified');
  });

  test('an unknown hash is TX_NOT_FOUND', async () => {
    await expectCode(verifyPayment(deps, claimFor(keccak256('0x1234'))), 'TX_NOT_FOUND');
  });

  test('a payment to another address is WRONG_RECIPIENT', async () => {
    const player = chain.players[0];
    const other = chain.players[2]?.account.address;
    if (!player || !other) throw new Error('no player');
    await expectCode(verifyPayment(deps, claimFor(await pay(player, { to: other }))), 'WRONG_RECIPIENT');
  });

  test('a payment claimed by someone other than its sender is WRONG_SENDER', async () => {
    const payer = chain.players[0];
    const claimer = chain.players[1]?.account.address;
    if (!payer || !claimer) throw new Error('no player');
    await expectCode(verifyPayment(deps, claimFor(await pay(payer), { from: claimer })), 'WRONG_SENDER');
  });

  test('a payment of a different amount is WRONG_AMOUNT', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player, { value: amountWei - 1n });
    await expectCode(verifyPayment(deps, claimFor(txHash)), 'WRONG_AMOUNT');
  });

  test('a payment whose intent names another market is INTENT_MISMATCH', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player, { data: encodeIntent({ kind: 'bet', marketId: 8, prediction: 'YES' }) });
    await expectCode(verifyPayment(deps, claimFor(txHash)), 'INTENT_MISMATCH');
  });

  test('a payment whose intent names the other side is INTENT_MISMATCH', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player, { data: encodeIntent({ kind: 'bet', marketId: 7, prediction: 'NO' }) });
    await expectCode(verifyPayment(deps, claimFor(txHash)), 'INTENT_MISMATCH');
  });

  test('a plain transfer without any intent is INTENT_MISMATCH', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    await expectCode(
      verifyPayment(deps, claimFor(await pay(player, { data: undefined }))),
      'INTENT_MISMATCH',
    );
  });

  test('a payment verified against another chain id is WRONG_CHAIN', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player);
    await expectCode(verifyPayment({ ...deps, chainId: 97 }, claimFor(txHash)), 'WRONG_CHAIN');
  });

  test('a payment through a contract that reverts is TX_FAILED', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    // A "vault" whose code always reverts (PUSH1 0 PUSH1 0 REVERT): the transfer is mined, and fails.
    const reverting = '0x00000000000000000000000000000000000fa11d';
    await chain.testClient.setCode({ address: reverting, bytecode: '0x60006000fd' });
    const request = await player.prepareTransactionRequest({
      to: reverting,
      value: amountWei,
      data: encodeIntent(betIntent),
      gas: 100_000n,
    });
    const signed = await player.signTransaction(request);
    const txHash = keccak256(signed);
    // The node reports the revert as an error, but mines the transaction.
    await player.sendRawTransaction({ serializedTransaction: signed }).catch(() => {});
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: txHash });
    expect(receipt.status).toBe('reverted');
    await expectCode(verifyPayment({ ...deps, vaultAddress: reverting }, claimFor(txHash)), 'TX_FAILED');
  });

  test('a payment not yet final answers pending, and verifies once enough blocks follow', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player);
    const strict = { ...deps, confirmations: 3 };
    expect(await verifyPayment(strict, claimFor(txHash))).toEqual({ status: 'pending', txHash });
    await chain.testClient.mine({ blocks: 2 });
    expect((await verifyPayment(strict, claimFor(txHash))).status).toBe('verified');
  });

  test('a payment still waiting in the mempool answers pending, and verifies once mined', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    await chain.testClient.setAutomine(false);
    try {
      const txHash = await pay(player, { gas: 60_000n });
      expect(await verifyPayment(deps, claimFor(txHash))).toEqual({ status: 'pending', txHash });
      await chain.testClient.mine({ blocks: 1 });
      expect((await verifyPayment(deps, claimFor(txHash))).status).toBe('verified');
    } finally {
      await chain.testClient.setAutomine(true);
    }
  });

  test('a payment reorged out while it waits for finality is never verified (F7)', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const before = await chain.publicClient.getBalance({ address: player.account.address });
    const snapshot = await chain.testClient.snapshot();
    const txHash = await pay(player);
    const verifying = verifyPayment({ ...deps, confirmations: 3, waitMs: 3_000 }, claimFor(txHash));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The block with the payment is replaced by others: the chain moves on without it.
    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    expect(await verifying).toEqual({ status: 'pending', txHash });
    expect(await chain.publicClient.getBalance({ address: player.account.address })).toBe(before);
  });

  test('a receipt naming a canonical block that does not hold the transaction is never verified (F7)', async () => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    await chain.testClient.mine({ blocks: 1 });
    const txHash = await pay(player);
    const real = await chain.publicClient.getTransactionReceipt({ hash: txHash });
    const other = await chain.publicClient.getBlock({ blockNumber: real.blockNumber - 1n });
    // A lagging or lying node: the receipt names the block before, which is canonical and final but
    // holds no such transaction. Only the block's own list of transactions can tell.
    const node = http(chain.rpcUrl)({ chain: localChain, retryCount: 0 });
    const lying = createPublicClient({
      chain: localChain,
      transport: custom({
        async request({ method, params }: { method: string; params?: unknown }) {
          const answer = await node.request({ method, params });
          if (method !== 'eth_getTransactionReceipt' || !answer || typeof answer !== 'object') return answer;
          return { ...answer, blockHash: other.hash, blockNumber: toHex(other.number ?? 0n) };
        },
      }),
    });
    const result = await verifyPayment({ ...deps, client: lying }, claimFor(txHash));
    expect(result).toEqual({ status: 'pending', txHash });
    // The same payment through an honest node is verified: what failed above is the membership check.
    expect((await verifyPayment(deps, claimFor(txHash))).status).toBe('verified');
  });

  test('an unknown hash costs a few reads, shared by every request that names it (F9)', async () => {
    const rpc = createFaultyChainClient(chain.rpcUrl);
    const slow = { ...deps, client: rpc.client, waitMs: 15_000, pollMs: 250 };
    const hash = keccak256('0x5678');
    const started = Date.now();
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => verifyPayment(slow, claimFor(hash))),
    );
    expect(answers.every((answer) => answer.status === 'rejected')).toBe(true);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(rpc.calls('eth_getTransactionByHash')).toBeLessThanOrEqual(5);
  });

  test('an RPC that fails is CHAIN_UNAVAILABLE, never TX_NOT_FOUND', async () => {
    const rpc = createFaultyChainClient(chain.rpcUrl);
    rpc.fail('eth_getTransactionByHash');
    await expectCode(
      verifyPayment({ ...deps, client: rpc.client }, claimFor(keccak256('0x9abc'))),
      'CHAIN_UNAVAILABLE',
    );
  });

  // Security review 2 (lows): a failed block or finality read escaped as a raw error (a 500), where
  // any other failed read is CHAIN_UNAVAILABLE (503, "try again").
  test.each([
    ['the finalized block is refused (a node without the tag)', 'finalized', 'error'],
    ['the finalized block is missing', 'finalized', 'null'],
    ["the receipt's block is refused (header not found)", 1, 'error'],
    ["the receipt's block is missing (a lagging node)", 1, 'null'],
  ] as const)('a failed block read is CHAIN_UNAVAILABLE: %s', async (_name, confirmations, fault) => {
    const player = chain.players[0];
    if (!player) throw new Error('no player');
    const txHash = await pay(player);
    await chain.testClient.mine({ blocks: 1 });
    const node = http(chain.rpcUrl)({ chain: localChain, retryCount: 0 });
    const broken = createPublicClient({
      chain: localChain,
      transport: custom(
        {
          async request({ method, params }: { method: string; params?: unknown }) {
            if (method === 'eth_getBlockByNumber') {
              // -32000 "header not found": an error no pattern of the transient list knows.
              if (fault === 'error') throw Object.assign(new Error('header not found'), { code: -32000 });
              return null;
            }
            return node.request({ method, params });
          },
        },
        { retryCount: 0 },
      ),
    });
    await expectCode(
      verifyPayment({ ...deps, client: broken, confirmations }, claimFor(txHash)),
      'CHAIN_UNAVAILABLE',
    );
  });
});
