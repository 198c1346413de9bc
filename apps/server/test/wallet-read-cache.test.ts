import { randomBytes } from 'node:crypto';
import { CHAIN_ID } from '@pm/core/constants';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { eq, sql } from 'drizzle-orm';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_ESCROW_ROLES } from '../src/config/dev-accounts.ts';
import { bets, marketFlags, markets } from '../src/db/schema.ts';
import { settleMarket } from '../src/settlement/settle-market.ts';
import { WALLET_READS, type WalletRead } from '../src/wallet-reads/wallet-changes.ts';
import { claimableOf, claimItself, escrowOf, postEscrowSettlement } from './support/escrow-market-helpers.ts';
import { insertPayment } from './support/fixtures.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { liveRound } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 032: a wallet's own reads (its bets, claimable, history, P&L) are kept per wallet, and
// every event that changes what one of them shows drops exactly the reads it changes, of exactly the
// wallets it touches, whatever path made it: a request, a job, a follower of the chain, a hand in
// the database (migration 0021's triggers). Each step reads everything of every wallet first, makes
// one event, waits until the instance has heard everything committed so far, then checks what is
// still kept, and that every kept read answers what the database holds now.

const MIN_PAYOUT_DELAY = 60;

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let ann: Address;
let bob: Address;
let cy: Address;
let dee: Address;

beforeAll(async () => {
  t = await startTestApp({
    WALLET_READ_CACHE_MS: '600000',
    ROUND_INTERVAL_S: '120',
    BETTING_WINDOW_S: '60',
    PAYMENT_WAIT_MS: '1500',
  });
  m = marketHelpers(t);
  [ann, bob, cy] = [0, 1, 2].map((index) => m.player(index).account.address) as [Address, Address, Address];
  dee = deesWallet().account.address;
});
afterAll(() => t?.close());

/** A fourth wallet: a dev account the node funds, beyond the test chain's three players. */
const deesWallet = () => m.extraWallet(10);

const PATHS: Record<WalletRead, string> = {
  bets: 'bets',
  claimable: 'claimable',
  history: 'history',
  summary: 'summary',
};
const urlOf = (address: string, read: WalletRead) => `/api/users/${address}/${PATHS[read]}`;

async function get(url: string, fresh = false) {
  const response = await t.app.inject({
    method: 'GET',
    url,
    ...(fresh ? { headers: { cookie: 'pm_fresh=1' } } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as unknown;
}

const kept = (address: string) => t.app.walletReads.cachedReads(address);

/**
 * Reads the four of each wallet until all are kept: a read during which any change of a market or a
 * round arrived is not kept (on PostgreSQL the last event's changes may still be arriving).
 */
async function readAll(...addresses: string[]) {
  const deadline = Date.now() + 5_000;
  for (const address of addresses) {
    for (;;) {
      const missing = WALLET_READS.filter((read) => !kept(address).includes(read));
      if (missing.length === 0) break;
      if (Date.now() > deadline) throw new Error(`${address}'s ${missing.join(', ')} are not kept`);
      for (const read of missing) await get(urlOf(address, read));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * Waits until this instance has heard every change committed so far: a change of a wallet of its own
 * (a sentinel), committed after them, arrives after them (one listening connection, commit order).
 */
async function heard() {
  const sentinel = `0x${randomBytes(20).toString('hex')}`;
  await readAll(sentinel);
  await t.db.execute(sql`select wallet_reads_of_wallets(8, array[${sentinel}]::text[], null, null)`);
  const deadline = Date.now() + 5_000;
  while (kept(sentinel).includes('summary')) {
    if (Date.now() > deadline) throw new Error('the sentinel was not dropped');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * After `event`: the reads each wallet still keeps are `expected`'s, and every kept read answers
 * what the database holds (the same as a fresh read).
 */
async function expectAfter(event: () => Promise<unknown>, expected: Record<string, WalletRead[]>) {
  const wallets = Object.keys(expected);
  await readAll(...wallets);
  await event();
  await heard();
  for (const address of wallets) expect(kept(address), address).toEqual(expected[address]);
  for (const address of wallets) {
    for (const read of WALLET_READS) {
      const url = urlOf(address, read);
      expect(await get(url), url).toEqual(await get(url, true));
    }
  }
}

const ALL: WalletRead[] = [...WALLET_READS];

describe('the wallet read cache drops what each event changes, and nothing else', () => {
  let marketId = 0;
  let annsBetId = 0;

  test('a round bet, and the round ending with its payout: the bettor’s claimable, history and P&L', async () => {
    const round = await liveRound(t, { tick: () => t.job('oracle-rounds').run() });
    // Recorded as the intake records a deposit.
    await expectAfter(() => round.stake(deesWallet(), 'bull', parseEther('0.01')), {
      [dee]: ['bets', 'claimable'],
      [ann]: ALL,
      [cy]: ALL,
    });
    await expectAfter(() => round.end({ lock: '600.00', close: '610.00' }), {
      [dee]: ['bets'],
      [ann]: ALL,
      [cy]: ALL,
    });
  });

  test("a market created through this instance: the creator's reads (its own write)", async () => {
    await expectAfter(
      async () => {
        marketId = (await m.createMarket({ prediction: 'YES' }, { player: 0 })).market.id;
      },
      { [ann]: [], [bob]: ALL, [cy]: ALL },
    );
  });

  test('a deposit nobody posted, recorded by reconciliation: the bettor’s bets, history and P&L', async () => {
    await expectAfter(
      async () => {
        await m.payBet(marketId, { player: 1, prediction: 'NO', amountWei: parseEther('0.02') });
        await t.job('escrow-reconciliation').run();
      },
      { [bob]: ['claimable'], [ann]: ALL, [cy]: ALL },
    );
  });

  test("a bet posted through this instance: the bettor's reads (its own write)", async () => {
    await expectAfter(() => m.joinMarket(marketId, { player: 1, prediction: 'NO' }), {
      [bob]: [],
      [ann]: ALL,
      [cy]: ALL,
    });
  });

  test('the market closing at its deadline: what its bettors see of it (not their P&L)', async () => {
    await expectAfter(
      async () => {
        await t.advanceTime(3600 + 5);
        await t.job('market-settlement').run();
        const [row] = await t.db.select().from(markets).where(eq(markets.id, marketId));
        expect(row?.status).toBe('settling');
      },
      { [ann]: ['summary'], [bob]: ['summary'], [cy]: ALL },
    );
  });

  test('the market settled: every read of its bettors', async () => {
    await expectAfter(
      () =>
        t.db.transaction((tx) =>
          settleMarket(tx, {
            marketId,
            outcome: 'YES',
            verdict: { analysis: 'It rained.', confidence: null, sources: [] },
            feeBps: t.config.fees.marketBps,
            now: t.clock.now(),
            from: ['settling'],
            escrow: { chainId: t.config.chain.id, address: escrowOf(t) },
          }),
        ),
      { [ann]: [], [bob]: [], [cy]: ALL },
    );
  });

  test('its settlement final on the escrow: the claims of its bettors', async () => {
    await expectAfter(() => postEscrowSettlement(t, { marketId }), {
      [ann]: ['bets', 'history', 'summary'],
      [bob]: ['bets', 'history', 'summary'],
      [cy]: ALL,
    });
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
  });

  test("a wallet's own claim on the escrow, followed from the chain: the claimer's reads", async () => {
    const claim = (await claimableOf(t, ann)).markets.bets[0];
    if (!claim?.escrowClaim) throw new Error('the winner has no escrow claim');
    annsBetId = claim.id;
    await expectAfter(
      async () => {
        await claimItself(t, m.player(0), claim.escrowClaim as NonNullable<typeof claim.escrowClaim>);
        await t.job('escrow-stake-payouts').run();
        const [row] = await t.db.select().from(bets).where(eq(bets.id, annsBetId));
        expect(row?.status).toBe('claimed');
      },
      { [ann]: [], [bob]: ALL, [cy]: ALL },
    );
  });

  test('a flag and its bond: the flagger’s claimable, history and P&L', async () => {
    const bond = await insertPayment(t.db, { from: bob, amount: parseEther('0.01') });
    await expectAfter(
      () =>
        t.db.insert(marketFlags).values({
          marketId,
          address: bob.toLowerCase(),
          reason: 'The source said otherwise',
          expiry: 1,
          signature: `0x${'1'.repeat(130)}`,
          bondPaymentId: bond.id,
          bondAmount: parseEther('0.01'),
          bondStatus: 'forfeited',
          bondReturnAmount: 0n,
          createdAt: t.clock.now(),
        }),
      { [bob]: ['bets'], [ann]: ALL, [cy]: ALL },
    );
  });

  test('an operator’s hand in the database: the owner’s reads, as any other path', async () => {
    await expectAfter(
      () => t.db.execute(sql`update bets set payout_amount = payout_amount where id = ${annsBetId}`),
      {
        [ann]: [],
        [bob]: ALL,
        [cy]: ALL,
      },
    );
  });

  test('a market voided: every read of its bettors, their refunds claimable', async () => {
    const voided = (await m.createMarket({ prediction: 'NO' }, { player: 2 })).market.id;
    await m.joinMarket(voided, { wallet: deesWallet(), prediction: 'YES' });
    await expectAfter(
      async () => {
        await t.advanceTime(3600 + 5);
        await t.job('market-settlement').run();
        await t.db.transaction((tx) =>
          settleMarket(tx, {
            marketId: voided,
            outcome: 'VOID',
            verdict: { analysis: 'Nobody can tell.', confidence: null, sources: [] },
            feeBps: t.config.fees.marketBps,
            now: t.clock.now(),
            from: ['settling'],
            escrow: { chainId: t.config.chain.id, address: escrowOf(t) },
          }),
        );
      },
      { [cy]: [], [dee]: [], [ann]: ALL, [bob]: ALL },
    );
  });

  test("a settlement the guardian vetoes, followed from the chain: every read of the market's bettors", async () => {
    const vetoed = (await m.createMarket({ prediction: 'YES' }, { player: 2 })).market.id;
    await m.joinMarket(vetoed, { wallet: deesWallet(), prediction: 'NO' });
    await t.advanceTime(3600 + 5);
    await t.job('market-settlement').run();
    await t.db.transaction((tx) =>
      settleMarket(tx, {
        marketId: vetoed,
        outcome: 'YES',
        verdict: { analysis: 'It happened.', confidence: null, sources: [] },
        feeBps: t.config.fees.marketBps,
        now: t.clock.now(),
        from: ['settling'],
        actor: 'ops CLI',
        escrow: { chainId: t.config.chain.id, address: escrowOf(t) },
      }),
    );
    await postEscrowSettlement(t, { marketId: vetoed });
    const [market] = await t.db.select().from(markets).where(eq(markets.id, vetoed));
    const guardian = createChainWallet(
      { id: CHAIN_ID.local, rpcUrl: t.chain.rpcUrl },
      DEV_ESCROW_ROLES.guardian.privateKey,
    );
    const hash = await guardian.writeContract({
      address: escrowOf(t),
      abi: predictionEscrowAbi,
      functionName: 'veto',
      args: [market?.escrowKey as `0x${string}`],
      chain: null,
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await expectAfter(() => t.job('escrow-market-fates').run(), {
      [cy]: [],
      [dee]: [],
      [ann]: ALL,
      [bob]: ALL,
    });
    const refund = (await claimableOf(t, cy)).markets.bets.find((bet) => bet.marketId === vetoed);
    expect(refund?.escrowClaim?.refund).toBe(true);
  });
});

test('its figures: reads by outcome, drops by cause, what it holds, and that the instance hears the changes', async () => {
  const value = async (metric: string) => {
    const text = await t.metrics.scrape();
    const line = text.split('\n').find((each) => each.startsWith(metric));
    return Number(line?.split(' ').at(-1) ?? Number.NaN);
  };
  const hits = 'bnbpredict_wallet_reads_total{read="summary",outcome="hit"}';
  await readAll(cy);
  const before = await value(hits);
  await get(urlOf(cy, 'summary'));
  expect(await value(hits)).toBe(before + 1);
  expect(await value('bnbpredict_wallet_read_cache_wallets')).toBeGreaterThan(0);
  expect(await value('bnbpredict_wallet_read_cache_bytes')).toBeGreaterThan(0);
  expect(await value('bnbpredict_wallet_read_drops_total{cause="change"}')).toBeGreaterThan(0);
  expect(await value('bnbpredict_wallet_read_drops_total{cause="write"}')).toBeGreaterThan(0);
  expect(await value('bnbpredict_realtime_listening')).toBe(1);
});
