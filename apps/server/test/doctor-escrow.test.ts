import { CHAIN_ID } from '@pm/core/constants';
import { deployEscrow, type EscrowDeployment } from '@pm/escrow/deploy';
import { deployMarketEscrow, type MarketEscrowSettings } from '@pm/escrow/deploy-market-escrow';
import { predictionEscrowAbi, predictionEscrowDeployedBytecode } from '@pm/escrow/prediction-escrow.gen';
import { type Address, getAddress, type Hex, pad, toHex, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_ESCROW_ROLES, DEV_OPERATOR, DEV_PLAYERS } from '../src/config/dev-accounts.ts';
import { DEV_ESCROW_DEPLOYMENT, deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { deployDevFeeds, devFeedSettings } from '../src/dev/dev-feeds.ts';
import { deployDevMarketEscrow, devMarketEscrowSettings } from '../src/dev/dev-market-escrow.ts';
import { runDoctor } from '../src/doctor/run-doctor.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';
import { openTestDatabase, type TestDatabase } from './support/test-database.ts';

// `npm run ops -- doctor` with ESCROW_ADDRESS (docs/decisions/026, docs/operations.md "Preflight") on the
// local chain: the dev deployment passes every escrow check; each check then fails on a contract deployed (or
// altered) to break only it, and a paused escrow is a warning, not a failure.

let chain: TestChain;
let database: TestDatabase;
let escrow: Address;

beforeAll(async () => {
  [chain, database] = await Promise.all([startTestChain(), openTestDatabase()]);
  escrow = (await deployDevEscrow(chain.rpcUrl)).address;
});
afterAll(async () => {
  await Promise.all([chain?.stop(), database?.close()]);
});

const OPERATOR = getAddress(DEV_OPERATOR.address);
const PLAYER = getAddress(DEV_PLAYERS[0].address);

async function doctor(env: Record<string, string>) {
  const lines: string[] = [];
  const code = await runDoctor({
    env: { RPC_URL: chain.rpcUrl, ...env },
    out: (line) => lines.push(line),
    openDatabase: async () => ({ db: database.db, label: 'the test database', close: async () => {} }),
  });
  const line = (title: string) => {
    const found = lines.find((each) => each.slice(2).startsWith(title));
    if (!found) throw new Error(`no line for "${title}" in:\n${lines.join('\n')}`);
    return found;
  };
  return { code, lines, output: lines.join('\n'), line };
}

const codeTitle = (address: Address) => `escrow ${address} runs this build's PredictionEscrow`;
const OPERATOR_TITLE = "OPERATOR_PRIVATE_KEY (the server's key) is the escrow's operator, not its admin";
const skippedAfterCode = (address: Address) => `skipped, as "${codeTitle(address)}" did not pass`;

/** Another escrow like the dev one but for `overrides`, deployed from `key` (the dev admin's). */
async function deploy(
  overrides: Partial<EscrowDeployment> = {},
  key: Hex = DEV_ESCROW_ROLES.admin.privateKey,
): Promise<Address> {
  const wallet = createChainWallet({ id: CHAIN_ID.local, rpcUrl: chain.rpcUrl }, key);
  const deployed = await deployEscrow(wallet, chain.publicClient, { ...DEV_ESCROW_DEPLOYMENT, ...overrides });
  return deployed.address;
}

async function send(key: Hex, address: Address, functionName: 'pause' | 'transferOwnership', to?: Address) {
  const wallet = createChainWallet({ id: CHAIN_ID.local, rpcUrl: chain.rpcUrl }, key);
  const hash =
    functionName === 'pause'
      ? await wallet.writeContract({ address, abi: predictionEscrowAbi, functionName })
      : await wallet.writeContract({
          address,
          abi: predictionEscrowAbi,
          functionName,
          args: [to ?? zeroAddress],
        });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

describe('ops doctor with ESCROW_ADDRESS', () => {
  test('the dev deployment: every escrow check ✔, with what it read', async () => {
    const result = await doctor({ ESCROW_ADDRESS: escrow });
    expect(result.code, result.output).toBe(0);
    expect(result.lines.at(-1)).toMatch(/^Ready: all \d+ checks passed\.$/);
    expect(result.line(codeTitle(escrow))).toMatch(
      new RegExp(`^✔ ${codeTitle(escrow)}: at block \\d+: holds 0 BNB, owes 0 BNB$`),
    );
    expect(result.line(OPERATOR_TITLE)).toBe(`✔ ${OPERATOR_TITLE}: ${OPERATOR}`);
    expect(result.line('escrow guardian and treasury are set')).toBe(
      `✔ escrow guardian and treasury are set: guardian ${getAddress(DEV_ESCROW_ROLES.guardian.address)}, treasury ${getAddress(DEV_ESCROW_ROLES.treasury.address)}`,
    );
    expect(result.line('escrow limits')).toBe(
      "✔ escrow limits: settlements draw at most 10000 BNB, refilled 10000 BNB an hour (10000 BNB now); payouts open at least 60 s after a settlement; a dispute's bond is the larger of 0.01 BNB and 500 bps of the pool",
    );
    expect(result.line('escrow is not paused')).toBe('✔ escrow is not paused');
    expect(result.line('markets are decided')).toBe(
      '✔ markets are decided before the escrow refunds them itself: MARKET_RESOLUTION_TIMEOUT_S + RESOLUTION_REVIEW_WINDOW_S = 262800 s, below ESCAPE_DELAY 604800 s',
    );
  });

  test('without ESCROW_ADDRESS: one line, ✖', async () => {
    const result = await doctor({});
    expect(result.line('escrow contract')).toBe(
      '✖ escrow contract: ESCROW_ADDRESS is not set: every stake is a deposit into it, so every bet is refused',
    );
    expect(result.output).not.toContain('PredictionEscrow');
  });

  test('no contract at ESCROW_ADDRESS: ✖, and the other escrow checks are skipped', async () => {
    const result = await doctor({ ESCROW_ADDRESS: PLAYER });
    expect(result.code).toBe(1);
    expect(result.line(codeTitle(PLAYER))).toMatch(
      new RegExp(
        `^✖ ${codeTitle(PLAYER)}: No contract at ${PLAYER} at block \\d+: ESCROW_ADDRESS is wrong, or on another chain$`,
      ),
    );
    expect(result.line(OPERATOR_TITLE)).toBe(`- ${OPERATOR_TITLE}: ${skippedAfterCode(PLAYER)}`);
    expect(result.line('escrow is not paused')).toBe(`- escrow is not paused: ${skippedAfterCode(PLAYER)}`);
  });

  test('code that is not this build (one byte changed): ✖ with both hashes', async () => {
    const altered = await deploy();
    const code = (await chain.publicClient.getCode({ address: altered })) as Hex;
    await chain.testClient.setCode({ address: altered, bytecode: `${code.slice(0, -2)}ff` as Hex });
    const result = await doctor({ ESCROW_ADDRESS: altered });
    expect(result.code).toBe(1);
    expect(result.line(codeTitle(altered))).toMatch(
      new RegExp(
        `^✖ ${codeTitle(altered)}: its code \\(hash 0x[0-9a-f]{64}\\) is not this build's PredictionEscrow \\(0x[0-9a-f]{64}\\): another version, or another contract$`,
      ),
    );
    expect(result.line(OPERATOR_TITLE)).toMatch(/^- .*skipped/);
  });

  test("the server's key is not the operator, is the admin, or is the admin-to-be: ✖", async () => {
    const otherOperator = await deploy({ operator: PLAYER });
    expect((await doctor({ ESCROW_ADDRESS: otherOperator })).line(OPERATOR_TITLE)).toBe(
      `✖ ${OPERATOR_TITLE}: the operator is ${PLAYER}; OPERATOR_PRIVATE_KEY is the key of ${OPERATOR}`,
    );

    const serverIsAdmin = await deploy({ admin: OPERATOR, operator: PLAYER }, DEV_OPERATOR.privateKey);
    expect((await doctor({ ESCROW_ADDRESS: serverIsAdmin })).line(OPERATOR_TITLE)).toBe(
      `✖ ${OPERATOR_TITLE}: OPERATOR_PRIVATE_KEY is the key of ${OPERATOR}, the escrow's admin: the admin must be kept off the server (a Safe)`,
    );

    const handingOver = await deploy();
    await send(DEV_ESCROW_ROLES.admin.privateKey, handingOver, 'transferOwnership', OPERATOR);
    expect((await doctor({ ESCROW_ADDRESS: handingOver })).line(OPERATOR_TITLE)).toBe(
      `✖ ${OPERATOR_TITLE}: OPERATOR_PRIVATE_KEY is the key of ${OPERATOR}, to which the escrow's admin role is being transferred`,
    );
  });

  test('a guardian that is the operator, no guardian, or no treasury: ✖', async () => {
    const title = 'escrow guardian and treasury are set';
    const guardedByOperator = await deploy({ guardian: OPERATOR });
    expect((await doctor({ ESCROW_ADDRESS: guardedByOperator })).line(title)).toBe(
      `✖ ${title}: the guardian is the operator (${OPERATOR}): a stolen operator key could not be stopped`,
    );

    // The contract never takes a zero guardian or treasury: a state forced onto the node stands for a
    // contract that is not what it says. Slot 3 holds the guardian and, above it, minPayoutDelay.
    const unguarded = await deploy();
    const slot = toHex(3, { size: 32 });
    const word = await chain.publicClient.getStorageAt({ address: unguarded, slot });
    expect(BigInt(word ?? '0x0') & ((1n << 160n) - 1n)).toBe(BigInt(DEV_ESCROW_ROLES.guardian.address));
    const delayOnly = pad(toHex((BigInt(word ?? '0x0') >> 160n) << 160n), { size: 32 });
    await chain.testClient.setStorageAt({ address: unguarded, index: slot, value: delayOnly });
    expect((await doctor({ ESCROW_ADDRESS: unguarded })).line(title)).toBe(
      `✖ ${title}: no guardian: nobody can veto a settlement`,
    );

    // The treasury is an immutable in the code: the compiled runtime code has zeros there. Its code hash
    // is still this build's (immutables aside), so only this check sees it.
    const untreasured = await deploy();
    await chain.testClient.setCode({ address: untreasured, bytecode: predictionEscrowDeployedBytecode });
    const result = await doctor({ ESCROW_ADDRESS: untreasured });
    expect(result.line(codeTitle(untreasured))).toMatch(/^✔/);
    expect(result.line(title)).toBe(`✖ ${title}: no treasury: fees would have nowhere to go`);
  });

  test('a paused escrow: ⚠, and doctor still exits 0 saying there is a warning', async () => {
    const paused = await deploy();
    await send(DEV_ESCROW_ROLES.guardian.privateKey, paused, 'pause');
    const result = await doctor({ ESCROW_ADDRESS: paused });
    expect(result.code, result.output).toBe(0);
    expect(result.line('escrow is not paused')).toBe(
      '⚠ escrow is not paused: it is paused: deposits and settlements are refused until the admin unpauses it (npm run ops -- vault:unpause)',
    );
    expect(result.lines.at(-1)).toMatch(/^Ready: all \d+ checks passed, 1 warning \(⚠\) to act on\.$/);
  });

  test('a resolution timeout and review window that reach the escape delay: ✖', async () => {
    const result = await doctor({ ESCROW_ADDRESS: escrow, MARKET_RESOLUTION_TIMEOUT_S: String(7 * 86_400) });
    expect(result.code).toBe(1);
    expect(result.line('markets are decided')).toBe(
      "✖ markets are decided before the escrow refunds them itself: MARKET_RESOLUTION_TIMEOUT_S + RESOLUTION_REVIEW_WINDOW_S = 608400 s is not below the escrow's ESCAPE_DELAY (604800 s): a slow verdict would meet the escape hatch",
    );
  });
});

describe('ops doctor with MARKET_ESCROW_ADDRESS', () => {
  const marketCodeTitle = (address: Address) => `MarketEscrow ${address} runs this build's MarketEscrow`;
  const MARKET_OPERATOR_TITLE =
    "OPERATOR_PRIVATE_KEY (the server's key) is MarketEscrow's operator, not its admin";
  const BLOCK_TITLE = "MARKET_ESCROW_DEPLOY_BLOCK is MarketEscrow's deployment block";
  const FEES_TITLE =
    "MarketEscrow's fees and price age are ORACLE_FEE_BPS, MARKET_FEE_BPS and ORACLE_MAX_AGE_S";
  const FEEDS_TITLE = "MarketEscrow's feed of each coin is the one the settings name";
  let feeds: Awaited<ReturnType<typeof deployDevFeeds>>;
  let market: { address: Address; blockNumber: bigint };

  beforeAll(async () => {
    feeds = await deployDevFeeds(chain.rpcUrl);
    market = await deployDevMarketEscrow(chain.rpcUrl, feeds);
  });

  const marketEnv = (env: Record<string, string> = {}) => ({
    ESCROW_ADDRESS: escrow,
    MARKET_ESCROW_ADDRESS: market.address,
    MARKET_ESCROW_DEPLOY_BLOCK: String(market.blockNumber),
    ...env,
  });

  /** Another MarketEscrow like the dev one but for `overrides`, from the dev admin. */
  async function deployMarket(overrides: Partial<MarketEscrowSettings>): Promise<Address> {
    const wallet = createChainWallet(
      { id: CHAIN_ID.local, rpcUrl: chain.rpcUrl },
      DEV_ESCROW_ROLES.admin.privateKey,
    );
    const deployed = await deployMarketEscrow(wallet, chain.publicClient, {
      ...devMarketEscrowSettings(feeds),
      ...overrides,
    });
    return deployed.address;
  }

  test('the dev deployment: every MarketEscrow check ✔, with what it read', async () => {
    const result = await doctor(marketEnv());
    expect(result.code, result.output).toBe(0);
    expect(result.line(marketCodeTitle(market.address))).toMatch(
      new RegExp(`^✔ ${marketCodeTitle(market.address)}: at block \\d+$`),
    );
    expect(result.line(MARKET_OPERATOR_TITLE)).toBe(`✔ ${MARKET_OPERATOR_TITLE}: ${OPERATOR}`);
    expect(result.line(BLOCK_TITLE)).toBe(
      `✔ ${BLOCK_TITLE}: block ${market.blockNumber}: reconciliation starts there`,
    );
    expect(result.line(FEES_TITLE)).toBe(
      `✔ ${FEES_TITLE}: rounds 0 bps, price markets 0 bps, prices at most 120 s old`,
    );
    expect(result.line(FEEDS_TITLE)).toBe(`✔ ${FEEDS_TITLE}: all 8 coins`);
    // Read as with PRICE_FEED=chainlink on the dev feeds (npm start's settings): the same feeds.
    expect((await doctor(marketEnv(devFeedSettings(feeds)))).line(FEEDS_TITLE)).toMatch(/^✔/);
  });

  test('without MARKET_ESCROW_ADDRESS: no MarketEscrow line', async () => {
    const result = await doctor({ ESCROW_ADDRESS: escrow });
    expect(result.output).not.toContain('MarketEscrow');
  });

  test('no contract, or another contract (the PredictionEscrow): ✖, and its other checks are skipped', async () => {
    const none = await doctor(marketEnv({ MARKET_ESCROW_ADDRESS: PLAYER }));
    expect(none.code).toBe(1);
    expect(none.line(marketCodeTitle(PLAYER))).toMatch(
      new RegExp(
        `^✖ ${marketCodeTitle(PLAYER)}: No contract at ${PLAYER} at block \\d+: MARKET_ESCROW_ADDRESS is wrong, or on another chain$`,
      ),
    );
    expect(none.line(FEEDS_TITLE)).toMatch(/^- .*skipped/);
    const other = await doctor(marketEnv({ MARKET_ESCROW_ADDRESS: escrow }));
    expect(other.line(marketCodeTitle(escrow))).toMatch(
      new RegExp(
        `^✖ ${marketCodeTitle(escrow)}: its code \\(hash 0x[0-9a-f]{64}\\) is not this build's MarketEscrow \\(0x[0-9a-f]{64}\\): another version, or another contract$`,
      ),
    );
    expect(other.line(FEES_TITLE)).toMatch(/^- .*skipped/);
  });

  test('a deploy block before the deployment: ✖; after it: ⚠', async () => {
    const early = await doctor(marketEnv({ MARKET_ESCROW_DEPLOY_BLOCK: String(market.blockNumber - 1n) }));
    expect(early.line(BLOCK_TITLE)).toBe(
      `✖ ${BLOCK_TITLE}: MarketEscrow has no code at block ${market.blockNumber - 1n}: it was deployed later, so MARKET_ESCROW_DEPLOY_BLOCK is wrong`,
    );
    await chain.testClient.mine({ blocks: 1 });
    const late = await doctor(marketEnv({ MARKET_ESCROW_DEPLOY_BLOCK: String(market.blockNumber + 1n) }));
    expect(late.line(BLOCK_TITLE)).toMatch(
      new RegExp(`^⚠ ${BLOCK_TITLE}: MarketEscrow has code before block ${market.blockNumber + 1n}`),
    );
  });

  test('fees or a price age other than the settings: ✖ naming each', async () => {
    const result = await doctor(marketEnv({ ORACLE_FEE_BPS: '250', ORACLE_MAX_AGE_S: '300' }));
    expect(result.code).toBe(1);
    expect(result.line(FEES_TITLE)).toBe(
      `✖ ${FEES_TITLE}: its roundFeeBps is 0, ORACLE_FEE_BPS is 250; its maxPriceAge is 120, ORACLE_MAX_AGE_S is 300: it is fixed for good, so deploy another (vault:deploy) or set the settings to it`,
    );
    const priced = await deployMarket({ priceMarketFeeBps: 100 });
    expect(
      (await doctor(marketEnv({ MARKET_ESCROW_ADDRESS: priced, MARKET_ESCROW_DEPLOY_BLOCK: '' }))).line(
        FEES_TITLE,
      ),
    ).toMatch(/^✖ .*: its priceMarketFeeBps is 100, MARKET_FEE_BPS is 0:/);
  });

  test('a coin read from another feed than the settings name: ✖ naming the coin and both feeds', async () => {
    const btc = feeds.get('BTC')?.proxy as Address;
    const eth = feeds.get('ETH')?.proxy as Address;
    const swapped = await deployMarket({
      feeds: devMarketEscrowSettings(feeds).feeds.map((feed) =>
        feed === btc ? eth : feed === eth ? btc : feed,
      ),
    });
    const result = await doctor(
      marketEnv({ MARKET_ESCROW_ADDRESS: swapped, MARKET_ESCROW_DEPLOY_BLOCK: '' }),
    );
    expect(result.line(FEEDS_TITLE)).toBe(
      `✖ ${FEEDS_TITLE}: BTC (coin 0) reads ${eth}, the settings name ${btc}; ETH (coin 1) reads ${btc}, the settings name ${eth}: its feeds are fixed for good`,
    );
    const fewer = await deployMarket({ feeds: [btc, eth] });
    expect(
      (await doctor(marketEnv({ MARKET_ESCROW_ADDRESS: fewer, MARKET_ESCROW_DEPLOY_BLOCK: '' }))).line(
        FEEDS_TITLE,
      ),
    ).toBe(`✖ ${FEEDS_TITLE}: it has 2 coins; the server has 8 (BTC, ETH, BNB, SOL, XRP, ADA, AVAX, DOGE)`);
  });

  test("the server's key is not its operator: ✖", async () => {
    const otherOperator = await deployMarket({ operator: PLAYER });
    expect(
      (
        await doctor(marketEnv({ MARKET_ESCROW_ADDRESS: otherOperator, MARKET_ESCROW_DEPLOY_BLOCK: '' }))
      ).line(MARKET_OPERATOR_TITLE),
    ).toBe(
      `✖ ${MARKET_OPERATOR_TITLE}: the operator is ${PLAYER}; OPERATOR_PRIVATE_KEY is the key of ${OPERATOR}`,
    );
  });
});
