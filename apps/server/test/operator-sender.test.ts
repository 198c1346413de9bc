import { marketKey } from '@pm/escrow/market-key';
import { buildPayoutTree } from '@pm/escrow/payout-tree';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { eq } from 'drizzle-orm';
import {
  type Address,
  encodeFunctionData,
  type Hash,
  type Hex,
  keccak256,
  type LocalAccount,
  parseEther,
  parseEventLogs,
  parseGwei,
  parseTransaction,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operatorTransactions } from '../src/db/schema.ts';
import { createMetrics, type Metrics } from '../src/metrics/metrics.ts';
import { MAX_UNKNOWN_REFUSALS, processOperatorTransactions } from '../src/operator-sender/operator-sender.ts';
import type { OperatorSenderDeps } from '../src/operator-sender/operator-sender-deps.ts';
import {
  findOperatorTx,
  type OperatorTxRow,
  readOpenOperatorWork,
} from '../src/operator-sender/operator-transactions-repository.ts';
import { classifyEscrowRevert } from '../src/operator-sender/revert-reason.ts';
import { OperatorActionError, submitOperatorAction } from '../src/operator-sender/submit-operator-action.ts';
import { createScriptedChainClient, rpcError } from './support/scripted-chain.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';
import { openTestDatabase, type TestDatabase } from './support/test-database.ts';
import { deployTestEscrow } from './support/test-escrow.ts';

// The operator key's sender (docs/decisions/026) on a real Hardhat node and a real database, through
// refused broadcasts, a lagging node and a reorg. Each test has an operator key of its own, so each is
// a nonce lane of its own.

let chain: TestChain;
let database: TestDatabase;
let metrics: Metrics;
let clock = Date.now();

beforeAll(async () => {
  chain = await startTestChain();
  database = await openTestDatabase();
  metrics = createMetrics();
});
afterAll(async () => {
  await database?.close();
  await chain?.stop();
});

const RESEND_MS = 15_000;
const REPLACE_MS = 60_000;
const NODE_POLICY = 'transaction rejected by the node policy';

let nextAddress = 0;
const freshAddress = () =>
  `0x${(BigInt('0x3000000000000000000000000000000000000000') + BigInt(++nextAddress)).toString(16)}` as Address;

/** An operator key with gas money only, funded without a transaction (no other lane moves). */
async function newOperator(): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.testClient.setBalance({ address: account.address, value: parseEther('10') });
  return account;
}

function senderDeps(account: LocalAccount, overrides: Partial<OperatorSenderDeps> = {}): OperatorSenderDeps {
  return {
    db: database.db,
    chain: chain.publicClient,
    chainId: 31337,
    account,
    confirmations: 1,
    maxFeePerGas: parseGwei('10'),
    resendAfterMs: RESEND_MS,
    replaceAfterMs: REPLACE_MS,
    classifyRevert: classifyEscrowRevert,
    now: () => clock,
    metrics,
    ...overrides,
  };
}

const transfer = (key: string, to: Address, value = 1000n) => ({ key, to, value, gasCap: 50_000n });
const row = async (id: number) => {
  const found = await findOperatorTx(database.db, id);
  if (!found) throw new Error(`no row ${id}`);
  return found;
};
const nonceOf = (address: Address, blockTag: 'latest' | 'pending' = 'latest') =>
  chain.publicClient.getTransactionCount({ address, blockTag });
const receiptOrNull = (hash: Hash) => chain.publicClient.getTransactionReceipt({ hash }).catch(() => null);

/** Steps the lane until every row is done (or `steps` run out); answers the rows, in order. */
async function runLane<const T extends readonly number[]>(
  deps: OperatorSenderDeps,
  ids: T,
  steps = 8,
): Promise<{ [K in keyof T]: OperatorTxRow }> {
  for (let step = 0; step < steps; step++) {
    const rows = await Promise.all(ids.map(row));
    if (rows.every((each) => ['confirmed', 'skipped', 'failed'].includes(each.status))) return asRows(rows);
    await processOperatorTransactions(deps);
  }
  return asRows(await Promise.all(ids.map(row)));
}

function asRows<const T extends readonly number[]>(rows: OperatorTxRow[]) {
  return rows as unknown as { [K in keyof T]: OperatorTxRow };
}

async function withoutAutomine<T>(body: () => Promise<T>): Promise<T> {
  await chain.testClient.setAutomine(false);
  try {
    return await body();
  } finally {
    await chain.testClient.setAutomine(true);
  }
}

/** Refuses broadcasts (with a node's words) whose transaction `refuse` picks; the rest go to the node. */
function refusingBroadcasts(refuse: (raw: Hex, calls: number) => Error | null) {
  const scripted = createScriptedChainClient(chain.rpcUrl);
  let calls = 0;
  scripted.script('eth_sendRawTransaction', (params, forward) => {
    const [raw] = params as [Hex];
    const refusal = refuse(raw, ++calls);
    if (refusal) throw refusal;
    return forward();
  });
  return scripted;
}

describe('submit', () => {
  test('an action is stored before anything is sent; the same key twice is one row and one transaction', async () => {
    const operator = await newOperator();
    const deps = senderDeps(operator);
    const to = freshAddress();
    const first = await submitOperatorAction(deps, transfer('submit-twice', to));
    const again = await submitOperatorAction(deps, transfer('submit-twice', to));
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ status: 'queued', nonce: null, sender: operator.address.toLowerCase() });
    expect(await nonceOf(operator.address, 'pending')).toBe(0);

    // The same key for another call is a caller's mistake: refused, nothing stored.
    await expect(submitOperatorAction(deps, transfer('submit-twice', to, 2000n))).rejects.toThrow(
      OperatorActionError,
    );
    await expect(submitOperatorAction(deps, { key: 'bad-cap', to, gasCap: 0n })).rejects.toThrow(/gasCap/);
    await expect(
      submitOperatorAction(deps, { key: 'bad-to', to: '0x1234', gasCap: 21_000n }),
    ).rejects.toThrow(/to: must be/);
    const stored = await database.db
      .select()
      .from(operatorTransactions)
      .where(eq(operatorTransactions.sender, operator.address.toLowerCase()));
    expect(stored).toHaveLength(1);

    const [done] = await runLane(deps, [first.id]);
    expect(done).toMatchObject({ status: 'confirmed', nonce: 0n, attempts: 1 });
    expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);

    // Submitted again once done: the row as it is, no second transaction.
    const late = await submitOperatorAction(deps, transfer('submit-twice', to));
    expect(late).toMatchObject({ id: first.id, status: 'confirmed' });
    await processOperatorTransactions(deps);
    expect(await nonceOf(operator.address, 'pending')).toBe(1);
    expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);
  });
});

describe('refused broadcasts', () => {
  test('the sender gives the refused nonce back: later actions take it at once, and the action goes out at a fresh nonce', async () => {
    const operator = await newOperator();
    let poisoned: Hash | undefined;
    const scripted = refusingBroadcasts((raw) => {
      poisoned ??= keccak256(raw);
      return keccak256(raw) === poisoned ? rpcError(NODE_POLICY) : null;
    });
    const deps = senderDeps(operator, { chain: scripted.client });
    const recipients = [freshAddress(), freshAddress(), freshAddress()];
    const ids: number[] = [];
    for (const [index, to] of recipients.entries())
      ids.push((await submitOperatorAction(deps, transfer(`n8-${index}`, to))).id);
    const releasedBefore = await counterValue('bnbpredict_operator_nonces_released_total');

    await processOperatorTransactions(deps);
    const [refused, second, third] = await Promise.all(ids.map(row));
    expect(refused).toMatchObject({ status: 'queued', nonce: null, refusals: 1 });
    expect(refused?.lastError).toContain(NODE_POLICY);
    expect(refused?.lastError).toContain('nonce 0 given back');
    // The nonce the refused action held went to the next action in the same step.
    expect(second).toMatchObject({ status: 'sent', nonce: 0n });
    expect(third).toMatchObject({ status: 'sent', nonce: 1n });

    const done = await runLane(deps, ids);
    expect(done.map((each) => [each.status, each.nonce])).toEqual([
      ['confirmed', 2n],
      ['confirmed', 0n],
      ['confirmed', 1n],
    ]);
    // Its refused signature is kept: had a node taken it after all, its receipt would settle the action.
    expect(done[0]?.txHashes).toHaveLength(2);
    for (const to of recipients) expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);
    expect(await nonceOf(operator.address)).toBe(3);
    expect(await counterValue('bnbpredict_operator_nonces_released_total')).toBe(releasedBefore + 1);
    expect(
      await counterValue('bnbpredict_operator_broadcasts_refused_total', { reason: 'unknown' }),
    ).toBeGreaterThan(0);
  });

  test('an action refused every time fails after its third refusal, and a nonce it leaves free below transactions in flight is filled', async () => {
    const operator = await newOperator();
    const doomed = freshAddress();
    const other = freshAddress();
    // The doomed action's first broadcast meets a passing fault (it keeps nonce 0 and the next
    // action takes nonce 1); every later one is refused for a reason we do not know.
    let doomedTries = 0;
    const scripted = refusingBroadcasts((raw) => {
      if (parseTransaction(raw).to?.toLowerCase() !== doomed) return null;
      doomedTries += 1;
      return doomedTries === 1 ? rpcError('limit exceeded', -32005) : rpcError(NODE_POLICY);
    });
    const deps = senderDeps(operator, { chain: scripted.client });
    const a = await submitOperatorAction(deps, transfer('doomed', doomed));
    const b = await submitOperatorAction(deps, transfer('behind-it', other));

    await processOperatorTransactions(deps);
    expect(await row(a.id)).toMatchObject({ status: 'signed', nonce: 0n });
    // Hardhat keeps no queue while automining: "nonce too high". It keeps its nonce and waits.
    const waiting = await row(b.id);
    expect(waiting).toMatchObject({ status: 'signed', nonce: 1n, refusals: 0 });
    expect(waiting.lastError).toMatch(/nonce too high.*waiting for the nonces below it/i);

    for (let refusal = 1; refusal <= MAX_UNKNOWN_REFUSALS; refusal++) await processOperatorTransactions(deps);
    expect(await row(b.id)).toMatchObject({ nonce: 1n, refusals: 0 });
    const failed = await row(a.id);
    expect(failed).toMatchObject({ status: 'failed', nonce: null, refusals: MAX_UNKNOWN_REFUSALS });
    expect(failed.lastError).toMatch(/refused 3 times: failed/);

    // Nothing is queued to take nonce 0: a 0-value transfer to the sender itself fills it.
    const filler = (
      await database.db
        .select()
        .from(operatorTransactions)
        .where(eq(operatorTransactions.sender, operator.address.toLowerCase()))
    ).find((each) => each.key.startsWith('nonce-fill:'));
    expect(filler).toMatchObject({ status: 'queued', toAddress: operator.address.toLowerCase(), value: 0n });
    if (!filler) throw new Error('no filler');
    clock += RESEND_MS;
    const [fill, behind] = await runLane(deps, [filler.id, b.id]);
    expect(fill).toMatchObject({ status: 'confirmed', nonce: 0n });
    expect(behind).toMatchObject({ status: 'confirmed', nonce: 1n });
    expect(await chain.publicClient.getBalance({ address: other })).toBe(1000n);
    expect(await chain.publicClient.getBalance({ address: doomed })).toBe(0n);
  });
});

describe('transient faults', () => {
  test('are retried on the next step, never read as a refusal', async () => {
    const operator = await newOperator();
    const scripted = createScriptedChainClient(chain.rpcUrl);
    const faults = new Map<string, number>([
      ['eth_call', 1],
      ['eth_estimateGas', 1],
      ['eth_getTransactionReceipt', 1],
    ]);
    for (const method of faults.keys()) {
      scripted.script(method, (_params, forward) => {
        const left = faults.get(method) ?? 0;
        if (left === 0) return forward();
        faults.set(method, left - 1);
        throw rpcError('limit exceeded', -32005);
      });
    }
    // The node takes the broadcast, then the answer is lost: an internal error.
    let broadcasts = 0;
    scripted.script('eth_sendRawTransaction', async (_params, forward) => {
      const answer = await forward();
      if (++broadcasts === 1) throw rpcError('internal error', -32603);
      return answer;
    });
    const deps = senderDeps(operator, { chain: scripted.client });
    const to = freshAddress();
    const action = await submitOperatorAction(deps, transfer('transient', to));

    await processOperatorTransactions(deps);
    expect(await row(action.id)).toMatchObject({
      status: 'queued',
      lastError: expect.stringMatching(/limit/i),
    });
    await processOperatorTransactions(deps);
    expect(await row(action.id)).toMatchObject({ status: 'queued' });
    await processOperatorTransactions(deps);
    const afterLostAnswer = await row(action.id);
    expect(afterLostAnswer).toMatchObject({ status: 'signed', nonce: 0n, refusals: 0 });
    expect(afterLostAnswer.lastError).toMatch(/sent again next step/);

    const [done] = await runLane(deps, [action.id]);
    expect(done).toMatchObject({
      status: 'confirmed',
      nonce: 0n,
      refusals: 0,
      txHashes: [afterLostAnswer.txHash],
    });
    expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);
    expect(await nonceOf(operator.address)).toBe(1);
  });
});

describe('a lagging node', () => {
  test('a receipt it does not serve never makes a second transaction at a new nonce', async () => {
    const operator = await newOperator();
    const scripted = createScriptedChainClient(chain.rpcUrl);
    const deps = senderDeps(operator, { chain: scripted.client });
    const to = freshAddress();
    const action = await submitOperatorAction(deps, transfer('receipt-lags', to));
    await processOperatorTransactions(deps);
    expect(await row(action.id)).toMatchObject({ status: 'sent', nonce: 0n });

    scripted.script('eth_getTransactionReceipt', () => null);
    for (let step = 0; step < 4; step++) {
      clock += REPLACE_MS;
      await processOperatorTransactions(deps);
    }
    const waiting = await row(action.id);
    expect(waiting).toMatchObject({ status: 'sent', nonce: 0n, txHashes: [waiting.txHash] });
    expect(waiting.lastError).toMatch(/receipt not served yet/);

    scripted.unscript();
    const [done] = await runLane(deps, [action.id]);
    expect(done).toMatchObject({ status: 'confirmed', nonce: 0n });
    expect(await nonceOf(operator.address)).toBe(1);
    expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);
  });

  test('a node behind the chain (no receipt, no transaction, an old nonce) is never read as a free nonce', async () => {
    const operator = await newOperator();
    const scripted = createScriptedChainClient(chain.rpcUrl);
    const deps = senderDeps(operator, { chain: scripted.client });
    const first = freshAddress();
    const a = await submitOperatorAction(deps, transfer('behind-a', first));
    await processOperatorTransactions(deps);
    expect(await row(a.id)).toMatchObject({ status: 'sent', nonce: 0n });

    // The node's view from before the transaction mined, asked as often as we like.
    scripted.script('eth_getTransactionReceipt', () => null);
    scripted.script('eth_getTransactionByHash', () => null);
    scripted.script('eth_getTransactionCount', () => '0x0');
    const second = freshAddress();
    const b = await submitOperatorAction(deps, transfer('behind-b', second));
    for (let step = 0; step < 3; step++) {
      clock += REPLACE_MS;
      await processOperatorTransactions(deps);
    }
    const stale = await row(a.id);
    // Replaced, but only ever at its own nonce: at most one of its transactions can mine.
    expect(stale).toMatchObject({ nonce: 0n });
    expect(['signed', 'sent']).toContain(stale.status);
    expect(stale.txHashes.length).toBeGreaterThan(1);
    expect(await row(b.id)).toMatchObject({ nonce: 1n });

    scripted.unscript();
    const done = await runLane(deps, [a.id, b.id]);
    expect(done.map((each) => [each.status, each.nonce])).toEqual([
      ['confirmed', 0n],
      ['confirmed', 1n],
    ]);
    expect(done[0]?.txHash).toBe(stale.txHashes[0]);
    expect(await nonceOf(operator.address)).toBe(2);
    expect(await chain.publicClient.getBalance({ address: first })).toBe(1000n);
    expect(await chain.publicClient.getBalance({ address: second })).toBe(1000n);
  });
});

describe('transactions that do not mine', () => {
  test('a stuck transaction is replaced at its nonce with fees at least 12.5 % higher', async () => {
    const operator = await newOperator();
    const deps = senderDeps(operator);
    const to = freshAddress();
    const action = await submitOperatorAction(deps, transfer('stuck', to));
    const replacementsBefore = await counterValue('bnbpredict_operator_replacements_total', { kind: 'fee' });
    await withoutAutomine(async () => {
      await processOperatorTransactions(deps);
      const sent = await row(action.id);
      expect(sent).toMatchObject({ status: 'sent', nonce: 0n });
      clock += RESEND_MS;
      await processOperatorTransactions(deps);
      // Sent again as it is before the replacement time.
      expect((await row(action.id)).txHashes).toEqual([sent.txHash]);

      clock += REPLACE_MS;
      await processOperatorTransactions(deps);
      const replaced = await row(action.id);
      expect(replaced).toMatchObject({ status: 'sent', nonce: 0n });
      expect(replaced.txHashes).toEqual([sent.txHash, replaced.txHash]);
      expect(replaced.maxFeePerGas ?? 0n).toBeGreaterThanOrEqual(((sent.maxFeePerGas ?? 0n) * 1125n) / 1000n);
      expect(replaced.maxPriorityFeePerGas ?? 0n).toBeGreaterThanOrEqual(
        ((sent.maxPriorityFeePerGas ?? 0n) * 1125n) / 1000n,
      );
      await chain.testClient.mine({ blocks: 1 });
      const [done] = await runLane(deps, [action.id]);
      expect(done).toMatchObject({ status: 'confirmed', nonce: 0n, txHash: replaced.txHash });
      expect(await receiptOrNull(sent.txHash as Hash)).toBeNull();
    });
    expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);
    expect(await counterValue('bnbpredict_operator_replacements_total', { kind: 'fee' })).toBe(
      replacementsBefore + 1,
    );
  });

  test('a transaction the node dropped is sent again as it is', async () => {
    const operator = await newOperator();
    const deps = senderDeps(operator);
    const action = await submitOperatorAction(deps, transfer('dropped', freshAddress()));
    await withoutAutomine(async () => {
      await processOperatorTransactions(deps);
      const sent = await row(action.id);
      await chain.testClient.dropTransaction({ hash: sent.txHash as Hash });
      expect(await nonceOf(operator.address, 'pending')).toBe(0);
      clock += RESEND_MS;
      await processOperatorTransactions(deps);
      expect(await nonceOf(operator.address, 'pending')).toBe(1);
      await chain.testClient.mine({ blocks: 1 });
      const [done] = await runLane(deps, [action.id]);
      expect(done).toMatchObject({ status: 'confirmed', txHash: sent.txHash, txHashes: [sent.txHash] });
    });
  });

  test('at the fee ceiling a stuck transaction is not replaced: it waits at its fees and is sent again', async () => {
    const operator = await newOperator();
    // The ceiling is the market's fee: the first signature is already at it, no bump fits under it.
    const ceiling = (await chain.publicClient.estimateFeesPerGas()).maxFeePerGas;
    const deps = senderDeps(operator, { maxFeePerGas: ceiling });
    const action = await submitOperatorAction(deps, transfer('ceiling', freshAddress()));
    await withoutAutomine(async () => {
      await processOperatorTransactions(deps);
      const sent = await row(action.id);
      expect(sent).toMatchObject({ status: 'sent', maxFeePerGas: ceiling });
      await chain.testClient.dropTransaction({ hash: sent.txHash as Hash });
      clock += REPLACE_MS;
      await processOperatorTransactions(deps);
      const waiting = await row(action.id);
      expect(waiting).toMatchObject({ status: 'sent', txHashes: [sent.txHash] });
      expect(waiting.lastError).toMatch(/unmined at the fee ceiling/);
      expect(await nonceOf(operator.address, 'pending')).toBe(1);
      await chain.testClient.mine({ blocks: 1 });
    });
    const [done] = await runLane(deps, [action.id]);
    expect(done).toMatchObject({ status: 'confirmed', txHashes: [done.txHash] });
  });

  test('after a reorg, a receipt whose block left the chain counts for nothing and the vanished transaction is sent again', async () => {
    const operator = await newOperator();
    // Two blocks deep is final here, so a receipt can be seen before it is final.
    const scripted = createScriptedChainClient(chain.rpcUrl);
    const deps = senderDeps(operator, { chain: scripted.client, confirmations: 2 });
    const to = freshAddress();
    const action = await submitOperatorAction(deps, transfer('reorg', to));
    const snapshot = await chain.testClient.snapshot();
    let oldReceipt: unknown;
    scripted.script('eth_getTransactionReceipt', async (_params, forward) => {
      oldReceipt = (await forward()) ?? oldReceipt;
      return oldReceipt ?? null;
    });
    await processOperatorTransactions(deps);
    await processOperatorTransactions(deps);
    const seen = await row(action.id);
    expect(seen).toMatchObject({ status: 'sent', nonce: 0n });
    expect(oldReceipt).toBeTruthy();
    const oldBlockHash = (oldReceipt as { blockHash: string }).blockHash;

    // The block with our transaction leaves the chain; others take its height and become final.
    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    expect(await receiptOrNull(seen.txHash as Hash)).toBeNull();
    clock += RESEND_MS;
    // The node still answers the old receipt: final by height, but not the canonical block's.
    await processOperatorTransactions(deps);
    const resent = await row(action.id);
    expect(resent.status).toBe('sent');
    expect(resent.blockHash).toBeNull();
    expect(await chain.publicClient.getTransaction({ hash: seen.txHash as Hash })).toBeTruthy();

    scripted.unscript();
    await chain.testClient.mine({ blocks: 2 });
    const [done] = await runLane(deps, [action.id]);
    expect(done).toMatchObject({ status: 'confirmed', txHash: seen.txHash });
    expect(done.blockHash).not.toBe(oldBlockHash);
    expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);
  });
});

describe('calls on the escrow', () => {
  /** An escrow whose operator is this key, with one stake of `amount` by player 0 in a fresh market. */
  async function escrowWithStake(operator: LocalAccount, amount = parseEther('1')) {
    const escrow = await deployTestEscrow(chain, { operator: operator.address });
    const bettor = chain.players[0];
    if (!bettor) throw new Error('no player');
    const id = keccak256(toHex(`market ${++nextAddress}`));
    const closesAt = Number((await chain.publicClient.getBlock()).timestamp) + 3600;
    const hash = await bettor.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'deposit',
      args: [id, closesAt, 2, 1, toHex(0, { size: 32 }), toHex(0, { size: 32 })],
      value: amount,
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    const [deposited] = parseEventLogs({
      abi: predictionEscrowAbi,
      logs: receipt.logs,
      eventName: 'Deposited',
    });
    if (!deposited) throw new Error('no deposit');
    const stake = {
      stakeId: deposited.args.stakeId,
      owner: deposited.args.owner,
      market: marketKey(id, closesAt),
      amount,
    };
    return { escrow, stake, bettor };
  }

  const refundStake = (
    key: string,
    escrow: Address,
    stake: Parameters<typeof refundStakeData>[0],
    gasCap = 200_000n,
  ) => ({
    key,
    to: escrow,
    data: refundStakeData(stake),
    gasCap,
  });
  function refundStakeData(stake: { stakeId: bigint; owner: Address; market: Hex; amount: bigint }) {
    return encodeFunctionData({ abi: predictionEscrowAbi, functionName: 'refundStake', args: [stake] });
  }

  test("a gas estimate above the action's cap fails it with both figures, and nothing is sent", async () => {
    const operator = await newOperator();
    const deps = senderDeps(operator);
    const { escrow, stake } = await escrowWithStake(operator);
    const action = await submitOperatorAction(deps, refundStake('over-cap', escrow, stake, 30_000n));
    const [done] = await runLane(deps, [action.id]);
    expect(done).toMatchObject({ status: 'failed', nonce: null, txHashes: [] });
    expect(done.lastError).toMatch(/gas estimate \(\d+\) is above its cap \(30000\): not sent/);
    expect(await nonceOf(operator.address, 'pending')).toBe(0);
  });

  test('a call whose effect already holds is skipped; a revert for another reason fails with its decoded reason', async () => {
    const operator = await newOperator();
    const deps = senderDeps(operator);
    const { escrow, stake, bettor } = await escrowWithStake(operator);
    const before = await chain.publicClient.getBalance({ address: bettor.account.address });
    const refund = await submitOperatorAction(deps, refundStake('refund-1', escrow, stake));
    const [refunded] = await runLane(deps, [refund.id]);
    expect(refunded).toMatchObject({ status: 'confirmed', nonce: 0n });
    expect((refunded.gasUsed ?? 0n) > 0n && (refunded.gasUsed ?? 0n) <= (refunded.gasLimit ?? 0n)).toBe(true);
    expect((await chain.publicClient.getBalance({ address: bettor.account.address })) - before).toBe(
      stake.amount,
    );

    // The same refund under another key (a retried relay): the stake is spent, so it is done.
    const again = await submitOperatorAction(deps, refundStake('refund-2', escrow, stake));
    const unknownMarket = { ...stake, market: keccak256(toHex('no such market')) };
    const wrong = await submitOperatorAction(deps, refundStake('refund-3', escrow, unknownMarket));
    const [skipped, failed] = await runLane(deps, [again.id, wrong.id]);
    expect(skipped).toMatchObject({ status: 'skipped', nonce: null });
    expect(skipped.lastError).toMatch(/StakeMismatch\(1\): its effect already holds/);
    expect(failed).toMatchObject({ status: 'failed', nonce: null });
    expect(failed.lastError).toMatch(/its simulation reverts with MarketNotOpen\(0x[0-9a-f]{64}, 0\)$/);
    expect(await nonceOf(operator.address, 'pending')).toBe(1);
  });

  /** A stake settled as the whole pool's payout and claimable now, with the claim's calldata. */
  async function claimableStake(deps: OperatorSenderDeps, operator: LocalAccount) {
    const { escrow, stake, bettor } = await escrowWithStake(operator);
    const tree = buildPayoutTree([{ stakeId: stake.stakeId, amount: stake.amount }]);
    await chain.advanceTime(3601);
    const settle = await submitOperatorAction(deps, {
      key: `settle-${stake.market}`,
      to: escrow,
      data: encodeFunctionData({
        abi: predictionEscrowAbi,
        functionName: 'settle',
        args: [stake.market, 1, keccak256(toHex('verdict')), tree.root, tree.total, 0n, 60],
      }),
      gasCap: 300_000n,
    });
    const [settled] = await runLane(deps, [settle.id]);
    expect(settled?.status).toBe('confirmed');
    await chain.advanceTime(61);
    const claim = { stake, payout: stake.amount, proof: tree.proof(stake.stakeId) };
    const data = encodeFunctionData({ abi: predictionEscrowAbi, functionName: 'claim', args: [claim] });
    return { escrow, stake, bettor, claim, data };
  }

  test('a reverted receipt fails the action, and it is not tried again', async () => {
    const operator = await newOperator();
    const deps = senderDeps(operator);
    const { escrow, bettor, claim, data } = await claimableStake(deps, operator);
    const relay = await submitOperatorAction(deps, {
      key: 'relay-loses',
      to: escrow,
      data,
      gasCap: 300_000n,
    });
    await withoutAutomine(async () => {
      await processOperatorTransactions(deps);
      expect(await row(relay.id)).toMatchObject({ status: 'sent', nonce: 1n });
      // The bettor claims for itself, paying more: its claim comes first in the block, ours reverts.
      await bettor.writeContract({
        address: escrow,
        abi: predictionEscrowAbi,
        functionName: 'claim',
        args: [claim],
        maxPriorityFeePerGas: parseGwei('5'),
        maxFeePerGas: parseGwei('9'),
        gas: 300_000n,
      });
      await chain.testClient.mine({ blocks: 1 });
    });
    const [failed] = await runLane(deps, [relay.id]);
    expect(failed).toMatchObject({ status: 'failed', nonce: 1n });
    expect(failed.lastError).toMatch(/reverted on chain/);
    for (let step = 0; step < 3; step++) await processOperatorTransactions(deps);
    expect(await nonceOf(operator.address, 'pending')).toBe(2);
  });

  test('a stuck call whose effect now holds is cancelled at its nonce with a 0-value transfer to the sender itself', async () => {
    const operator = await newOperator();
    const deps = senderDeps(operator);
    const { escrow, bettor, claim, data } = await claimableStake(deps, operator);
    const relay = await submitOperatorAction(deps, {
      key: 'relay-cancelled',
      to: escrow,
      data,
      gasCap: 300_000n,
    });
    const cancelsBefore = await counterValue('bnbpredict_operator_replacements_total', { kind: 'cancel' });
    await withoutAutomine(async () => {
      await processOperatorTransactions(deps);
      const sent = await row(relay.id);
      expect(sent).toMatchObject({ status: 'sent', nonce: 1n });
      // Ours is lost; the bettor claims for itself meanwhile.
      await chain.testClient.dropTransaction({ hash: sent.txHash as Hash });
      await bettor.writeContract({
        address: escrow,
        abi: predictionEscrowAbi,
        functionName: 'claim',
        args: [claim],
      });
      await chain.testClient.mine({ blocks: 1 });
      clock += REPLACE_MS;
      await processOperatorTransactions(deps);
      const cancelling = await row(relay.id);
      expect(cancelling).toMatchObject({ status: 'sent', nonce: 1n, cancelOutcome: 'skipped' });
      expect(cancelling.cancelHashes).toEqual([cancelling.txHash]);
      const cancel = await chain.publicClient.getTransaction({ hash: cancelling.txHash as Hash });
      expect(cancel).toMatchObject({ to: operator.address.toLowerCase(), value: 0n, nonce: 1 });
      await chain.testClient.mine({ blocks: 1 });
    });
    const [skipped] = await runLane(deps, [relay.id]);
    expect(skipped).toMatchObject({ status: 'skipped', nonce: 1n });
    expect(skipped.lastError).toMatch(/StakeMismatch\(\d+\): its effect already holds; cancelled at nonce 1/);
    expect(await counterValue('bnbpredict_operator_replacements_total', { kind: 'cancel' })).toBe(
      cancelsBefore + 1,
    );
  });
});

describe('two instances on one database', () => {
  test('share one nonce sequence: every action sent once, no nonce twice', async () => {
    const operator = await newOperator();
    const first = senderDeps(operator, { chain: createScriptedChainClient(chain.rpcUrl).client });
    const second = senderDeps(operator, { chain: createScriptedChainClient(chain.rpcUrl).client });
    const recipients = Array.from({ length: 6 }, () => freshAddress());
    const ids: number[] = [];
    for (const [index, to] of recipients.entries()) {
      const deps = index % 2 === 0 ? first : second;
      ids.push((await submitOperatorAction(deps, transfer(`pair-${index}`, to))).id);
    }
    for (let step = 0; step < 6; step++) {
      await Promise.all([processOperatorTransactions(first), processOperatorTransactions(second)]);
    }
    const rows = await Promise.all(ids.map(row));
    expect(rows.every((each) => each.status === 'confirmed')).toBe(true);
    expect(rows.map((each) => each.nonce).sort()).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    expect(rows.every((each) => each.txHashes.length === 1)).toBe(true);
    expect(await nonceOf(operator.address)).toBe(6);
    for (const to of recipients) expect(await chain.publicClient.getBalance({ address: to })).toBe(1000n);
  });
});

describe('metrics', () => {
  test('actions by status, refusals, released nonces and replacements are exported', async () => {
    metrics.observeOperatorWork(async () => ({
      ...(await readOpenOperatorWork(database.db)),
      oldestPendingSettlementAgeS: null,
    }));
    const text = await metrics.scrape();
    // The open actions by status (the done ones are the _total counter's), and the oldest one's age.
    for (const status of ['queued', 'signed', 'sent'])
      expect(text).toMatch(new RegExp(`bnbpredict_operator_transactions\\{status="${status}"\\} \\d+`));
    expect(text).not.toMatch(/bnbpredict_operator_transactions\{status="confirmed"\}/);
    expect(text).toMatch(/bnbpredict_operator_oldest_open_age_seconds \d/);
    expect(text).toMatch(/bnbpredict_operator_transactions_total\{state="sent"\} [1-9]/);
    expect(text).toMatch(/bnbpredict_operator_broadcasts_refused_total\{reason="unknown"\} [1-9]/);
    expect(text).toMatch(/bnbpredict_operator_nonces_released_total [1-9]/);
    expect(text).toMatch(/bnbpredict_operator_replacements_total\{kind="cancel"\} [1-9]/);
  });
});

async function counterValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const match = values.find((value) =>
    Object.entries(labels).every(([label, wanted]) => value.labels[label] === wanted),
  );
  return match?.value ?? 0;
}
