import { DEPOSIT_KIND, type DepositTerms, SIDE_CODE } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  type Address,
  getAddress,
  type Hash,
  keccak256,
  parseEventLogs,
  type TransactionRequest,
  toHex,
} from 'viem';
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
  chainNow,
  deployBatchAccount,
  deployEscrow,
  deposit,
  depositCall,
  executeBatch,
} from '../../../test/support/escrow-contracts.ts';
import { createFaultyChainClient } from '../../../test/support/faulty-chain.ts';
import type { TestChain } from '../../../test/support/test-chain.ts';
import { type DepositClaim, type DepositVerifierDeps, verifyDeposit } from './verify-deposit.ts';

const amountWei = DEPOSIT_WEI;
const ZERO_TERMS = `0x${'0'.repeat(64)}` as const;

let chain: TestChain;
let escrow: Address;
let deps: DepositVerifierDeps;
/** A bet on "market 7", YES, closing hours after the chain's start. */
let bet: BetTerms;

beforeAll(async () => {
  ({ chain, escrow, bet } = await startDepositChain());
  deps = {
    client: chain.publicClient,
    chainId: 31337,
    escrowAddress: escrow,
    confirmations: 1,
    waitMs: 300,
    pollMs: 50,
  };
});
afterAll(() => chain?.stop());

const player = (index: number) => playerOf(chain, index);
const stakeIdsOf = (txHash: Hash) => stakeIdsIn(chain, txHash);

function claimFor(txHash: Hash, overrides: Partial<DepositClaim> = {}): DepositClaim {
  return { txHash, from: player(0).account.address, amountWei, terms: bet, ...overrides };
}

/**
 * Sends a transaction that reverts, with its gas set so nothing estimates it first, and returns its
 * hash: the node reports the revert as an error, but mines the transaction.
 */
async function sendReverting(wallet: TestChain['operator'], request: TransactionRequest): Promise<Hash> {
  const prepared = await wallet.prepareTransactionRequest({ ...request, gas: 200_000n });
  const signed = await wallet.signTransaction(prepared);
  await wallet.sendRawTransaction({ serializedTransaction: signed }).catch(() => {});
  const txHash = keccak256(signed);
  expect((await chain.publicClient.getTransactionReceipt({ hash: txHash })).status).toBe('reverted');
  return txHash;
}

describe('verifyDeposit', () => {
  test("a deposit with the right bettor, amount, key and terms is verified with the event's stake", async () => {
    const expectedStake = await chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'nextStakeId',
    });
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const result = await verifyDeposit(deps, claimFor(txHash));

    const receipt = await chain.publicClient.getTransactionReceipt({ hash: txHash });
    const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, eventName: 'Deposited', logs: receipt.logs });
    expect(result).toEqual({
      status: 'verified',
      deposit: {
        txHash,
        stakeId: expectedStake,
        owner: getAddress(player(0).account.address),
        key: marketKey(bet.market, bet.closesAt),
        amountWei,
        kind: DEPOSIT_KIND.bet,
        side: SIDE_CODE.YES,
        terms: ZERO_TERMS,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        blockTime: new Date(Number(block.timestamp) * 1000),
        logIndex: event?.logIndex,
        // An ordinary stake: no `Disputed` of it in the receipt (flag bonds: flag-disputes.test.ts).
        disputes: null,
      },
    });
  });

  test('the claimed bettor is matched case-insensitively', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const upper = `0x${player(0).account.address.slice(2).toUpperCase()}` as const;
    expect((await verifyDeposit(deps, claimFor(txHash, { from: upper }))).status).toBe('verified');
  });

  test('an unknown hash is TX_NOT_FOUND', async () => {
    await expectCode(verifyDeposit(deps, claimFor(keccak256('0x1234'))), 'TX_NOT_FOUND');
  });

  test('a deposit claimed by someone other than its depositor is WRONG_SENDER', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    await expectCode(
      verifyDeposit(deps, claimFor(txHash, { from: player(1).account.address })),
      'WRONG_SENDER',
    );
  });

  test('a deposit of a different amount is WRONG_AMOUNT', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei - 1n);
    await expectCode(verifyDeposit(deps, claimFor(txHash)), 'WRONG_AMOUNT');
  });

  const contentHash = keccak256(toHex('market text'));
  test.each<[string, (bet: DepositTerms & { kind: 'bet' }) => [DepositTerms, DepositTerms]]>([
    ['the other side', (bet) => [bet, { ...bet, prediction: 'NO' }]],
    ['another market', (bet) => [bet, { ...bet, market: keccak256(toHex('market 8')) }]],
    ['the same market with another close', (bet) => [bet, { ...bet, closesAt: bet.closesAt + 60 }]],
    ['a creation of the same market', (bet) => [bet, { ...bet, kind: 'create', contentHash }]],
    ['a round bet of the same key', (bet) => [bet, { ...bet, kind: 'round', position: 'bull' }]],
    [
      'a flag bond of the same market',
      (bet) => [bet, { kind: 'flag', market: bet.market, closesAt: bet.closesAt }],
    ],
    [
      'a creation committing to other content',
      (bet) => [
        { ...bet, kind: 'create', contentHash },
        { ...bet, kind: 'create', contentHash: keccak256(toHex('other text')) },
      ],
    ],
  ])('a deposit claimed for %s is INTENT_MISMATCH', async (_name, pair) => {
    const [deposited, claimed] = pair(bet);
    const txHash = await deposit(player(0), escrow, deposited, amountWei);
    expect((await verifyDeposit(deps, claimFor(txHash, { terms: deposited }))).status).toBe('verified');
    await expectCode(verifyDeposit(deps, claimFor(txHash, { terms: claimed })), 'INTENT_MISMATCH');
  });

  test('a plain transfer to the escrow reverts (DirectTransfer) and is TX_FAILED', async () => {
    const txHash = await sendReverting(player(0), { to: escrow, value: amountWei });
    await expectCode(verifyDeposit(deps, claimFor(txHash)), 'TX_FAILED');
  });

  test('a deposit the escrow refuses (a market already closed) is TX_FAILED', async () => {
    const closed = { ...bet, closesAt: (await chainNow(chain)) - 60 };
    const data = depositCall(escrow, closed, amountWei).data;
    const txHash = await sendReverting(player(0), { to: escrow, value: amountWei, data });
    await expectCode(verifyDeposit(deps, claimFor(txHash, { terms: closed })), 'TX_FAILED');
  });

  test('a deposit into another contract emitting the same event is WRONG_RECIPIENT', async () => {
    const other = await deployEscrow(chain);
    const txHash = await deposit(player(0), other, bet, amountWei);
    expect((await verifyDeposit({ ...deps, escrowAddress: other }, claimFor(txHash))).status).toBe(
      'verified',
    );
    await expectCode(verifyDeposit(deps, claimFor(txHash)), 'WRONG_RECIPIENT');
  });

  test('a plain transfer to someone else is WRONG_RECIPIENT', async () => {
    const txHash = await player(0).sendTransaction({ to: player(1).account.address, value: amountWei });
    await expectCode(verifyDeposit(deps, claimFor(txHash)), 'WRONG_RECIPIENT');
  });

  test('a deposit verified against another chain id is WRONG_CHAIN', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    await expectCode(verifyDeposit({ ...deps, chainId: 97 }, claimFor(txHash)), 'WRONG_CHAIN');
  });

  test('a deposit whose event the node marks removed is no deposit (WRONG_RECIPIENT)', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const removing = nodeRewriting(chain, 'eth_getTransactionReceipt', (answer) => {
      if (!answer || typeof answer !== 'object') return answer;
      const logs = (answer as { logs: object[] }).logs.map((log) => ({ ...log, removed: true }));
      return { ...answer, logs };
    });
    await expectCode(verifyDeposit({ ...deps, client: removing }, claimFor(txHash)), 'WRONG_RECIPIENT');
  });

  test('a deposit not yet final answers pending, and verifies once enough blocks follow', async () => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const strict = { ...deps, confirmations: 3 };
    expect(await verifyDeposit(strict, claimFor(txHash))).toEqual({ status: 'pending', txHash });
    await chain.testClient.mine({ blocks: 2 });
    expect((await verifyDeposit(strict, claimFor(txHash))).status).toBe('verified');
  });

  test('a deposit reorged out while it waits for finality is never verified', async () => {
    const snapshot = await chain.testClient.snapshot();
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const verifying = verifyDeposit({ ...deps, confirmations: 3, waitMs: 3_000 }, claimFor(txHash));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The block with the deposit is replaced by others: the chain moves on without it.
    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    expect(await verifying).toEqual({ status: 'pending', txHash });
  });

  test('a smart account that deposits is the bettor, whoever sent its transaction', async () => {
    const account = await deployBatchAccount(chain, player(0));
    const txHash = await executeBatch(player(0), account, [depositCall(escrow, bet, amountWei)]);
    const result = await verifyDeposit(deps, claimFor(txHash, { from: account }));
    expect(result.status === 'verified' && result.deposit.owner).toBe(getAddress(account));
    // The transaction's sender called the account, not the escrow: it deposited nothing.
    await expectCode(verifyDeposit(deps, claimFor(txHash)), 'WRONG_SENDER');
  });

  test('a batch of deposits (an EIP-7702 account) gives each claim its own stake, each once', async () => {
    const wallet = player(2);
    const implementation = await deployBatchAccount(chain, chain.operator);
    const authorization = await wallet.signAuthorization({ contractAddress: implementation });
    // A type-4 transaction sponsored by another account installs the delegation.
    await chain.publicClient.waitForTransactionReceipt({
      hash: await chain.operator.sendTransaction({
        to: wallet.account.address,
        authorizationList: [authorization],
      }),
    });
    const no = { ...bet, prediction: 'NO' } as const;
    const txHash = await executeBatch(wallet, wallet.account.address, [
      depositCall(escrow, bet, amountWei),
      depositCall(escrow, bet, amountWei),
      depositCall(escrow, no, amountWei),
    ]);
    const [first, second, third] = await stakeIdsOf(txHash);
    const from = wallet.account.address;
    const stakeOf = async (claim: DepositClaim) => {
      const result = await verifyDeposit(deps, claim);
      return result.status === 'verified' ? result.deposit.stakeId : null;
    };

    // The transaction's value is the three stakes together: each claim's amount is its event's.
    expect(await stakeOf(claimFor(txHash, { from }))).toBe(first);
    expect(await stakeOf(claimFor(txHash, { from, taken: [first ?? 0n] }))).toBe(second);
    await expectCode(
      verifyDeposit(deps, claimFor(txHash, { from, taken: [first ?? 0n, second ?? 0n] })),
      'TX_ALREADY_USED',
    );
    expect(await stakeOf(claimFor(txHash, { from, terms: no }))).toBe(third);
    expect(new Set([first, second, third]).size).toBe(3);
  });

  test.each([
    'eth_getTransactionByHash',
    'eth_getTransactionReceipt',
    'eth_blockNumber',
    'eth_getBlockByNumber',
  ])('an RPC failing %s is CHAIN_UNAVAILABLE, and the same claim verifies once it heals', async (method) => {
    const txHash = await deposit(player(0), escrow, bet, amountWei);
    const rpc = createFaultyChainClient(chain.rpcUrl);
    rpc.fail(method);
    await expectCode(verifyDeposit({ ...deps, client: rpc.client }, claimFor(txHash)), 'CHAIN_UNAVAILABLE');
    rpc.heal();
    expect((await verifyDeposit({ ...deps, client: rpc.client }, claimFor(txHash))).status).toBe('verified');
  });
});
