import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeMarketPayouts } from '@pm/core/payouts';
import { claimCall, refundCall } from '@pm/escrow/market-claims/market-claim-calls';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import type { Payout, PayoutTree } from '@pm/escrow/payout-tree';
import pino from 'pino';
import { type Address, type Hex, keccak256, parseEther, parseEventLogs, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { type Config, loadConfig } from '../src/config/config.ts';
import { DEV_ESCROW_ROLES } from '../src/config/dev-accounts.ts';
import { DEV_ESCROW_DEPLOYMENT } from '../src/dev/dev-escrow.ts';
import { findFreePort } from '../src/dev/local-chain.ts';
import { createGuardianMetrics, type GuardianMetrics } from '../src/guardian-watch/guardian-metrics.ts';
import { createGuardianWatch } from '../src/guardian-watch/guardian-watch.ts';
import { createFaultyChainClient } from './support/faulty-chain.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';
import {
  deployTestMarketEscrow,
  type PlacedStake,
  type TestMarketEscrow,
} from './support/test-market-escrow.ts';

// The guardian's watcher (docs/operations.md "The guardian's watcher", docs/custody.md "Running it
// safely") on a real Hardhat node with MarketEscrow: it recomputes each judged settlement from the
// chain alone, lets an honest one pay, vetoes a tampered one before its payouts open (every stake is
// then refunded, to the wei), retries an RPC fault instead of reading it as a difference, and runs as
// `npm run ops -- guardian:watch` until SIGTERM.

const FEE_BPS = 200;
const bnb = parseEther;
const DEV_PAYOUT_DELAY_S = DEV_ESCROW_DEPLOYMENT.minPayoutDelay;

let chain: TestChain;
let escrow: TestMarketEscrow;
let config: Config;

beforeAll(async () => {
  chain = await startTestChain();
  escrow = await deployTestMarketEscrow(chain, loadConfig({ RPC_URL: chain.rpcUrl }));
  config = loadConfig(watcherEnv());
}, 120_000);
afterAll(() => chain?.stop());

/** The watcher's settings, as its process gets them. */
function watcherEnv(): Record<string, string> {
  return {
    RPC_URL: chain.rpcUrl,
    MARKET_FEE_BPS: String(FEE_BPS),
    MARKET_ESCROW_ADDRESS: escrow.address,
    MARKET_ESCROW_DEPLOY_BLOCK: String(escrow.deployBlock),
  };
}

type LogLine = { level: number; msg: string; market?: string; differences?: string[] };

/** A watcher on this chain, its log kept as parsed lines and its own metrics. */
function watcher(client = chain.publicClient) {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const metrics = createGuardianMetrics();
  const watch = createGuardianWatch({
    client,
    guardian: createChainWallet(config.chain, DEV_ESCROW_ROLES.guardian.privateKey),
    escrow: escrow.address,
    deployBlock: escrow.deployBlock,
    feeBps: FEE_BPS,
    confirmations: 1,
    logger,
    metrics,
  });
  return { watch, metrics, lines };
}

const player = (index: number) => {
  const wallet = chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};
const ALICE = 0;
const BOB = 1;
const CAROL = 2;

const chainTime = async () => Number((await chain.publicClient.getBlock()).timestamp);

/** A judged market with these bets (the first creates it), past its close. */
async function closedMarket(bets: ReadonlyArray<readonly [who: number, side: 'YES' | 'NO', amount: string]>) {
  const [first, ...rest] = bets;
  if (!first) throw new Error('a market needs a first bet');
  const id = keccak256(toHex(`guardian market ${Math.random()}`));
  const closesAt = (await chainTime()) + 300;
  const created = await escrow.createJudgedMarket(
    player(first[0]),
    { id, closesAt, contentHash: keccak256(toHex(`question ${id}`)), side: first[1] },
    bnb(first[2]),
  );
  const stakes = [created];
  for (const [who, side, amount] of rest)
    stakes.push(await escrow.bet(player(who), created.market, side, bnb(amount)));
  await chain.advanceTime(301);
  return { key: created.market, stakes };
}

/** The list core's rules give (computeMarketPayouts), computed apart from the watcher. */
function honestList(stakes: readonly PlacedStake[], result: 'YES' | 'NO'): Payout[] {
  const computed = computeMarketPayouts({
    bets: stakes.map((stake) => ({
      id: stake.stakeId,
      side: stake.side === 1 ? ('YES' as const) : ('NO' as const),
      amountWei: stake.amount,
    })),
    result,
    feeBps: FEE_BPS,
  });
  return computed.payouts.map((payout) => ({ stakeId: payout.id, amount: payout.returnWei }));
}

/**
 * alice YES 1, carol YES 0.05, bob NO 0.5, bob NO 0.25, past its close: settled YES at 2 %, alice gets
 * 1.7, carol 0.085, the fee is 0.015 of the pool of 1.8.
 */
async function tamperableMarket() {
  const market = await closedMarket([
    [ALICE, 'YES', '1'],
    [CAROL, 'YES', '0.05'],
    [BOB, 'NO', '0.5'],
    [BOB, 'NO', '0.25'],
  ]);
  const [alice, carol, bob] = market.stakes;
  if (!alice || !carol || !bob) throw new Error('four stakes');
  expect(honestList(market.stakes, 'YES')).toEqual([
    { stakeId: alice.stakeId, amount: bnb('1.7') },
    { stakeId: carol.stakeId, amount: bnb('0.085') },
  ]);
  return { ...market, alice, carol, bob };
}

const balanceOf = (address: Address) => chain.publicClient.getBalance({ address });
const stakeRef = ({ stakeId, owner, market, amount, side }: PlacedStake) => ({
  stakeId,
  owner,
  market,
  amount,
  side,
});

/** A relayer (the operator key, no bettor here) sends a call, so an owner's balance moves by its money alone. */
async function relay(call: { to: Address; data: Hex }) {
  const hash = await chain.operator.sendTransaction({
    to: call.to,
    data: call.data,
    account: chain.operator.account,
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`${hash} reverted`);
  return receipt;
}

async function claimEach(stakes: readonly PlacedStake[], list: readonly Payout[], tree: PayoutTree) {
  for (const stake of stakes) {
    const payout = list.find((leaf) => leaf.stakeId === stake.stakeId)?.amount;
    if (payout === undefined) continue;
    const before = await balanceOf(stake.owner);
    await relay(
      claimCall(escrow.address, {
        kind: 'judged',
        stake: stakeRef(stake),
        payout,
        proof: tree.proof(stake.stakeId),
      }),
    );
    expect(await balanceOf(stake.owner)).toBe(before + payout);
  }
}

async function marketState(key: Hex) {
  const [pool, , claimableAt, , state] = await chain.publicClient.readContract({
    address: escrow.address,
    abi: marketEscrowAbi,
    functionName: 'markets',
    args: [key],
  });
  return { pool, claimableAt: BigInt(claimableAt), state };
}

const scrape = async (metrics: GuardianMetrics) => metrics.scrape();

describe('honest settlements', () => {
  let w: ReturnType<typeof watcher>;
  beforeAll(() => {
    w = watcher();
  });

  test('an honest settlement agrees, is not vetoed, and its payouts open at claimableAt and pay each winner', async () => {
    const { key, stakes } = await tamperableMarket();
    const list = honestList(stakes, 'YES');
    const { tree, claimableAt } = await escrow.settleJudged(key, list, { outcome: 'YES', delay: 120 });

    const pass = await w.watch.checkOnce();
    expect(pass).toMatchObject({ agreed: [key], vetoed: [], tooLate: [], retried: [], scanFailed: false });
    const line = w.lines.find((each) => each.market === key);
    expect(line).toMatchObject({ level: 30 });
    expect(line?.msg).toMatch(/settlement agrees with the rules' recomputation/);
    expect(await scrape(w.metrics)).toMatch(
      /bnbpredict_guardian_settlements_checked_total\{result="agrees"\} 1\n/,
    );
    expect(await scrape(w.metrics)).toMatch(/bnbpredict_guardian_vetoes_total 0\n/);

    // Checked once: the next pass reads only new blocks.
    expect((await w.watch.checkOnce()).agreed).toEqual([]);
    // Before claimableAt nothing pays; at it, each winner is paid its list's amount, to the wei.
    const [alice] = stakes;
    if (!alice) throw new Error('a stake');
    await expect(
      relay(
        claimCall(escrow.address, {
          kind: 'judged',
          stake: stakeRef(alice),
          payout: bnb('1.7'),
          proof: tree.proof(alice.stakeId),
        }),
      ),
    ).rejects.toThrow();
    await chain.testClient.setNextBlockTimestamp({ timestamp: claimableAt });
    await chain.testClient.mine({ blocks: 1 });
    await claimEach(stakes, list, tree);
    expect((await marketState(key)).state).toBe(2);
  });

  test('an amended settlement is checked as the one in force; one withdrawn has nothing to veto', async () => {
    const amended = await tamperableMarket();
    const honest = honestList(amended.stakes, 'YES');
    // A first list that pays bob, amended before the pass to the honest one.
    await escrow.settleJudged(
      amended.key,
      [
        { stakeId: amended.alice.stakeId, amount: bnb('1.6') },
        { stakeId: amended.carol.stakeId, amount: bnb('0.085') },
        { stakeId: amended.bob.stakeId, amount: bnb('0.1') },
      ],
      { outcome: 'YES' },
    );
    await escrow.settleJudged(amended.key, honest, { outcome: 'YES' });

    const withdrawn = await tamperableMarket();
    await escrow.settleJudged(withdrawn.key, [{ stakeId: withdrawn.bob.stakeId, amount: bnb('1.7') }], {
      outcome: 'NO',
    });
    await chain.publicClient.waitForTransactionReceipt({
      hash: await chain.operator.writeContract({
        address: escrow.address,
        abi: marketEscrowAbi,
        functionName: 'withdrawSettlement',
        args: [withdrawn.key],
      }),
    });
    const pass = await w.watch.checkOnce();
    expect(pass.agreed).toEqual([amended.key]);
    expect(pass.nothingInForce).toEqual([withdrawn.key]);
    expect(pass.vetoed).toEqual([]);

    // Its next settlement, honest, is checked when it lands.
    await escrow.settleJudged(withdrawn.key, honestList(withdrawn.stakes, 'YES'), { outcome: 'YES' });
    expect((await w.watch.checkOnce()).agreed).toEqual([withdrawn.key]);
    expect((await marketState(withdrawn.key)).state).toBe(2);
  });
});

describe('tampered settlements', () => {
  test('a list that pays a loser, drops a winner or takes a bigger fee is vetoed before its payouts open; every stake is refunded to the wei', async () => {
    // The settlements of the tests before are past their delay at this watcher's start: its first pass
    // skips them.
    await chain.advanceTime(DEV_PAYOUT_DELAY_S + 1);
    const w = watcher();
    expect(await w.watch.checkOnce()).toMatchObject({ agreed: [], vetoed: [], nothingInForce: [] });

    const paysLoser = await tamperableMarket();
    const dropsWinner = await tamperableMarket();
    const biggerFee = await tamperableMarket();
    const honest = await tamperableMarket();
    const posted = [
      await escrow.settleJudged(
        paysLoser.key,
        [
          { stakeId: paysLoser.alice.stakeId, amount: bnb('1.69') },
          { stakeId: paysLoser.carol.stakeId, amount: bnb('0.085') },
          { stakeId: paysLoser.bob.stakeId, amount: bnb('0.01') },
        ],
        { outcome: 'YES' },
      ),
      await escrow.settleJudged(
        dropsWinner.key,
        [{ stakeId: dropsWinner.alice.stakeId, amount: bnb('1.7') }],
        {
          outcome: 'YES',
        },
      ),
      await escrow.settleJudged(
        biggerFee.key,
        [
          { stakeId: biggerFee.alice.stakeId, amount: bnb('1.65') },
          { stakeId: biggerFee.carol.stakeId, amount: bnb('0.085') },
        ],
        { outcome: 'YES' },
      ),
    ];
    await escrow.settleJudged(honest.key, honestList(honest.stakes, 'YES'), { outcome: 'YES' });

    const pass = await w.watch.checkOnce();
    // One pass decides each market: three vetoed, the honest one let through.
    expect(pass.vetoed.map((each) => each.market)).toEqual([paysLoser.key, dropsWinner.key, biggerFee.key]);
    expect(pass.agreed).toEqual([honest.key]);
    expect(pass.retried).toEqual([]);
    const errors = w.lines.filter((line) => line.level === 50);
    expect(errors.map((line) => line.market)).toEqual([paysLoser.key, dropsWinner.key, biggerFee.key]);
    for (const line of errors)
      expect(line.msg).toMatch(/^guardian: VETOED market 0x[0-9a-f]{64}'s settlement/);
    expect(errors[0]?.differences).toEqual([
      expect.stringMatching(/payout root 0x[0-9a-f]{64} is not the rules' root/),
    ]);
    expect(errors[1]?.differences).toContain(
      'The settlement pays out 1.7 BNB in all, the rules 1.785 BNB: 0.085 BNB too little.',
    );
    expect(errors[2]?.differences).toContain(
      'The settlement keeps a fee of 0.065 BNB, the rules 0.015 BNB (the fee 0.015 BNB and rounding dust 0 BNB): 0.05 BNB too much.',
    );
    const text = await scrape(w.metrics);
    expect(text).toMatch(/bnbpredict_guardian_vetoes_total 3\n/);
    expect(text).toMatch(/bnbpredict_guardian_settlements_checked_total\{result="differs"\} 3\n/);
    expect(text).toMatch(/bnbpredict_guardian_settlements_checked_total\{result="agrees"\} 1\n/);

    for (const [index, market] of [paysLoser, dropsWinner, biggerFee].entries()) {
      const { claimableAt } = posted[index] ?? { claimableAt: 0n };
      const vetoed = pass.vetoed[index];
      if (!vetoed) throw new Error('a veto');
      // The veto landed before the payouts opened, from the guardian.
      const receipt = await chain.publicClient.getTransactionReceipt({ hash: vetoed.transactionHash });
      expect(receipt.from).toBe(DEV_ESCROW_ROLES.guardian.address);
      expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Vetoed' })).toHaveLength(
        1,
      );
      const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      expect(block.timestamp < claimableAt).toBe(true);
      expect((await marketState(market.key)).state).toBe(4);
    }

    // Past claimableAt nothing of a vetoed list pays; every stake comes back in full, to the wei.
    await chain.advanceTime(DEV_PAYOUT_DELAY_S + 1);
    const [first] = posted;
    if (!first) throw new Error('a settlement');
    await expect(
      relay(
        claimCall(escrow.address, {
          kind: 'judged',
          stake: stakeRef(paysLoser.bob),
          payout: bnb('0.01'),
          proof: first.tree.proof(paysLoser.bob.stakeId),
        }),
      ),
    ).rejects.toThrow();
    const escrowBefore = await balanceOf(escrow.address);
    let refunded = 0n;
    for (const market of [paysLoser, dropsWinner, biggerFee]) {
      for (const stake of market.stakes) {
        const before = await balanceOf(stake.owner);
        await relay(refundCall(escrow.address, stakeRef(stake)));
        expect(await balanceOf(stake.owner)).toBe(before + stake.amount);
        refunded += stake.amount;
      }
      expect((await marketState(market.key)).pool).toBe(0n);
    }
    expect(refunded).toBe(3n * bnb('1.8'));
    expect(await balanceOf(escrow.address)).toBe(escrowBefore - refunded);
    // A later pass has nothing left to decide.
    expect(await w.watch.checkOnce()).toMatchObject({ vetoed: [], agreed: [], retried: [] });
  });
});

describe('RPC faults', () => {
  test('a failed eth_getLogs, in the scan or in a check, is retried and never read as a difference', async () => {
    const faulty = createFaultyChainClient(chain.rpcUrl);
    const w = watcher(faulty.client);
    await w.watch.checkOnce();

    const { key, stakes } = await tamperableMarket();
    await escrow.settleJudged(key, honestList(stakes, 'YES'), { outcome: 'YES', delay: 300 });
    // The scan's request fails: nothing is decided, the same blocks are read again.
    faulty.fail('eth_getLogs', 1);
    const scanFailed = await w.watch.checkOnce();
    expect(scanFailed).toMatchObject({ scanFailed: true, agreed: [], vetoed: [] });
    // The scan goes through, the check's first read fails: the settlement waits for the next pass.
    faulty.fail('eth_getLogs', 1, { after: 1 });
    const checkFailed = await w.watch.checkOnce();
    expect(checkFailed).toMatchObject({ scanFailed: false, agreed: [], vetoed: [], retried: [key] });
    expect(w.watch.waiting()).toEqual([key]);
    const warning = w.lines.find((line) => line.level === 40 && line.market === key);
    expect(warning?.msg).toMatch(/tried again next pass, never read as a difference/);

    const healed = await w.watch.checkOnce();
    expect(healed).toMatchObject({ agreed: [key], vetoed: [], retried: [] });
    expect((await marketState(key)).state).toBe(2);
    const text = await scrape(w.metrics);
    expect(text).toMatch(/bnbpredict_guardian_check_failures_total 2\n/);
    expect(text).toMatch(/bnbpredict_guardian_vetoes_total 0\n/);
    expect(w.lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe('npm run ops -- guardian:watch', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pm-guardian-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  test('starts with its own key and metrics, checks a settlement, and stops cleanly on SIGTERM', async () => {
    // Every settlement before is past its delay: the watcher's first pass skips them.
    await chain.advanceTime(301);
    const metricsPort = await findFreePort();
    const serverDir = new URL('../', import.meta.url).pathname;
    const child = spawn(
      join(serverDir, '../../node_modules/.bin/tsx'),
      ['src/ops/cli.ts', 'guardian:watch', '--interval-ms', '200', '--metrics-port', String(metricsPort)],
      {
        cwd: serverDir,
        // Only what the watcher needs: no database, no operator key.
        env: { PATH: process.env.PATH ?? '', ...watcherEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const until = async (wanted: RegExp) => {
      for (let waited = 0; !wanted.test(stdout); waited += 100) {
        if (waited > 60_000 || child.exitCode !== null)
          throw new Error(`no ${wanted} in:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      await until(/Watching MarketEscrow 0x[0-9a-fA-F]{40} from block \d+ as the guardian/);
      expect(stdout).toContain(DEV_ESCROW_ROLES.guardian.address.slice(2, 10));
      const { key, stakes } = await tamperableMarket();
      await escrow.settleJudged(key, honestList(stakes, 'YES'), { outcome: 'YES' });
      await until(new RegExp(`market ${key}'s settlement agrees`));
      const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(scraped).toMatch(/bnbpredict_guardian_settlements_checked_total\{result="agrees"\} 1\n/);

      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('Stopped on SIGTERM');
      await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
