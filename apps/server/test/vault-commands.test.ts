import { PRICE_SYMBOLS } from '@pm/core/constants';
import { readEscrowStatus } from '@pm/escrow/deploy';
import { marketEscrowCodeHash, marketEscrowRuntimeCodeHash } from '@pm/escrow/deploy-market-escrow';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import { marketKey } from '@pm/escrow/market-key';
import { buildPayoutTree } from '@pm/escrow/payout-tree';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, getAddress, type Hex, keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Config, loadConfig } from '../src/config/config.ts';
import { DEV_ESCROW_ROLES, DEV_OPERATOR, DEV_PLAYERS } from '../src/config/dev-accounts.ts';
import { devFeedAddresses } from '../src/config/dev-feed-addresses.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { devFeedSettings } from '../src/dev/dev-feeds.ts';
import { runOpsCommand } from '../src/ops/ops-commands.ts';
import { vaultCommands } from '../src/ops/vault-commands.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';

// The escrow's ops commands (docs/decisions/025, docs/operations.md "Contract operations") on the local
// chain: each does what it says with the right key, and with the wrong one is refused by the contract, the
// refusal naming the role it needs and who holds it. No database: they run beside a live server.

let chain: TestChain;
let escrow: Address;

beforeAll(async () => {
  chain = await startTestChain();
  escrow = (await deployDevEscrow(chain.rpcUrl)).address;
});
afterAll(() => chain?.stop());

const ADMIN = getAddress(DEV_ESCROW_ROLES.admin.address);
const GUARDIAN = getAddress(DEV_ESCROW_ROLES.guardian.address);
const TREASURY = getAddress(DEV_ESCROW_ROLES.treasury.address);
const OPERATOR = getAddress(DEV_OPERATOR.address);

const settings = (env: Record<string, string> = {}) =>
  loadConfig({ RPC_URL: chain.rpcUrl, LOG_LEVEL: 'silent', ESCROW_ADDRESS: escrow, ...env });

async function ops(config: Config, ...argv: string[]) {
  const lines: string[] = [];
  const code = await runOpsCommand(
    argv,
    { config, out: (line) => lines.push(...line.split('\n')), chain: chain.publicClient },
    vaultCommands,
  );
  return { code, lines, output: lines.join('\n'), json: () => JSON.parse(lines.at(-1) ?? '') };
}
const run = (...argv: string[]) => ops(settings(), ...argv);

const deployArgs = (overrides: Record<string, string> = {}) =>
  Object.entries({
    admin: ADMIN,
    operator: OPERATOR,
    guardian: GUARDIAN,
    treasury: TREASURY,
    capacity: '100',
    'refill-per-hour': '12.5',
    'min-payout-delay': '600',
    'dispute-bond-min': '0.05',
    'dispute-bond-bps': '300',
    ...overrides,
  }).flatMap(([name, value]) => (value === '' ? [] : [`--${name}`, value]));

const readStatus = (address: Address = escrow) => readEscrowStatus(chain.publicClient, address);

/** What MarketEscrow at `address` fixed for good: its fees, price age, feeds by coin index, and its roles. */
async function readMarketEscrow(address: Address) {
  const read = <
    const F extends
      | 'roundFeeBps'
      | 'priceMarketFeeBps'
      | 'maxPriceAge'
      | 'coinCount'
      | 'operator'
      | 'owner'
      | 'guardian'
      | 'treasury',
  >(
    functionName: F,
  ) => chain.publicClient.readContract({ address, abi: marketEscrowAbi, functionName });
  const coinCount = await read('coinCount');
  return {
    code: marketEscrowCodeHash((await chain.publicClient.getCode({ address })) ?? '0x'),
    roundFeeBps: await read('roundFeeBps'),
    priceMarketFeeBps: await read('priceMarketFeeBps'),
    maxPriceAge: await read('maxPriceAge'),
    operator: await read('operator'),
    owner: await read('owner'),
    guardian: await read('guardian'),
    treasury: await read('treasury'),
    feeds: await Promise.all(
      Array.from({ length: coinCount }, (_, coin) =>
        chain.publicClient.readContract({
          address,
          abi: marketEscrowAbi,
          functionName: 'feeds',
          args: [coin],
        }),
      ),
    ),
  };
}

const devProxies = () => PRICE_SYMBOLS.map((symbol) => devFeedAddresses(symbol).proxy);

describe('vault:deploy', () => {
  test('deploys with the roles, limits and delay given, from the admin key; the address, then a JSON line', async () => {
    const result = await run('vault:deploy', ...deployArgs());
    expect(result.code, result.output).toBe(0);
    const printed = result.json();
    const address = getAddress(printed.escrowAddress);
    expect(result.lines[0]).toMatch(
      new RegExp(`^Deployed PredictionEscrow at ${address} \\(block \\d+, transaction 0x[0-9a-f]{64}\\)\\.$`),
    );
    expect(result.output).toContain(
      `Set ESCROW_ADDRESS=${address} and ESCROW_DEPLOY_BLOCK=${printed.blockNumber} for the server`,
    );
    // MarketEscrow beside it, with the same roles and limits, the server's fees and price age, and (on
    // the local chain with the simulated walk) the dev feeds by coin index.
    const market = printed.marketEscrow;
    expect(result.output).toContain(
      `Set MARKET_ESCROW_ADDRESS=${market.address} and MARKET_ESCROW_DEPLOY_BLOCK=${market.blockNumber} beside them`,
    );
    expect(result.lines).toContain(
      `Deployed MarketEscrow at ${market.address} (block ${market.blockNumber}, transaction ${market.transactionHash}), with the same roles, limits and bond.`,
    );
    expect(market).toMatchObject({
      roundFeeBps: 0,
      priceMarketFeeBps: 0,
      maxPriceAge: 120,
      feeds: devProxies(),
    });
    expect(await readMarketEscrow(market.address)).toEqual({
      code: marketEscrowRuntimeCodeHash(),
      roundFeeBps: 0,
      priceMarketFeeBps: 0,
      maxPriceAge: 120,
      operator: OPERATOR,
      owner: ADMIN,
      guardian: GUARDIAN,
      treasury: TREASURY,
      feeds: devProxies(),
    });
    const marketReceipt = await chain.publicClient.getTransactionReceipt({ hash: market.transactionHash });
    expect(marketReceipt).toMatchObject({
      from: DEV_ESCROW_ROLES.admin.address,
      blockNumber: BigInt(market.blockNumber),
    });
    expect(printed).toMatchObject({
      chainId: 31337,
      admin: ADMIN,
      operator: OPERATOR,
      guardian: GUARDIAN,
      treasury: TREASURY,
      settlementCapacity: parseEther('100').toString(),
      settlementRefillPerHour: parseEther('12.5').toString(),
      minPayoutDelay: 600,
      disputeBondMin: parseEther('0.05').toString(),
      disputeBondBps: 300,
    });
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: printed.transactionHash });
    expect(receipt.from).toBe(DEV_ESCROW_ROLES.admin.address);
    expect(await readStatus(address)).toMatchObject({
      owner: ADMIN,
      operator: OPERATOR,
      guardian: GUARDIAN,
      treasury: TREASURY,
      settlementCapacity: parseEther('100'),
      settlementRefillPerHour: parseEther('12.5'),
      minPayoutDelay: 600,
      disputeBondMin: parseEther('0.05'),
      disputeBondBps: 300,
      paused: false,
    });
  });

  test('MarketEscrow takes the fees, price age and Chainlink feeds the settings name, by coin index', async () => {
    // With PRICE_FEED=chainlink the feeds are CHAINLINK_FEED_ADDRESSES': here BTC's and ETH's swapped.
    const [btc, eth, ...rest] = devProxies();
    const feeds = new Map(
      PRICE_SYMBOLS.map((symbol, coin) => [
        symbol,
        { description: '', aggregator: btc as Address, proxy: ([eth, btc, ...rest][coin] ?? btc) as Address },
      ]),
    );
    const config = settings({
      ...devFeedSettings(feeds),
      ORACLE_FEE_BPS: '250',
      MARKET_FEE_BPS: '100',
      ORACLE_MAX_AGE_S: '300',
    });
    const result = await ops(config, 'vault:deploy', ...deployArgs());
    expect(result.code, result.output).toBe(0);
    const { address } = result.json().marketEscrow;
    expect(await readMarketEscrow(address)).toMatchObject({
      roundFeeBps: 250,
      priceMarketFeeBps: 100,
      maxPriceAge: 300,
      feeds: [eth, btc, ...rest],
    });
    expect(result.lines).toContain(
      "  fees 250 bps of a round's pool (ORACLE_FEE_BPS), 100 bps of a price market's (MARKET_FEE_BPS); a price decides when at most 300 s old (ORACLE_MAX_AGE_S) (fixed for good)",
    );
    expect(result.output).toContain(
      `  feeds by coin index (fixed for good): 0 BTC ${eth}, 1 ETH ${btc}, 2 BNB `,
    );
  });

  test('settings MarketEscrow refuses: neither contract is sent, the refusal names the setting', async () => {
    const nonce = await chain.publicClient.getTransactionCount({ address: ADMIN });
    const young = await ops(settings({ ORACLE_MAX_AGE_S: '5' }), 'vault:deploy', ...deployArgs());
    expect(young).toMatchObject({
      code: 1,
      output:
        'Refused: BadConfig: MarketEscrow refuses its settings: ORACLE_FEE_BPS (0) and MARKET_FEE_BPS (0) must be at most 1000, ORACLE_MAX_AGE_S (5) from 10 to 86400 seconds',
    });
    // Chainlink's BSC mainnet proxies (the defaults) have no code on the local chain.
    const mainnetFeeds = await ops(settings({ PRICE_FEED: 'chainlink' }), 'vault:deploy', ...deployArgs());
    expect(mainnetFeeds.code).toBe(1);
    expect(mainnetFeeds.output).toMatch(
      /^Refused: BadConfig: MarketEscrow refuses its settings: no contract at the feed of BTC 0x[0-9a-fA-F]{40}, ETH .* on this chain \(CHAINLINK_FEED_ADDRESS, CHAINLINK_FEED_ADDRESSES\)$/,
    );
    expect(await chain.publicClient.getTransactionCount({ address: ADMIN })).toBe(nonce);
  });

  test('the admin may be another address (a Safe): the admin key only sends the deployment', async () => {
    const safe = getAddress(DEV_PLAYERS[2].address);
    const result = await run('vault:deploy', ...deployArgs({ admin: safe }));
    expect(result.code, result.output).toBe(0);
    expect((await readStatus(result.json().escrowAddress)).owner).toBe(safe);
  });

  test("what the constructor refuses is refused before sending, with the contract's error explained", async () => {
    const nonce = await chain.publicClient.getTransactionCount({ address: ADMIN });
    const asAdmin = await run('vault:deploy', ...deployArgs({ operator: ADMIN }));
    expect(asAdmin).toMatchObject({
      code: 1,
      output: 'Refused: OperatorIsAdmin: the operator may never be the admin (--operator is --admin)',
    });
    const small = await run('vault:deploy', ...deployArgs({ capacity: '0.01' }));
    expect(small.output).toBe(
      'Refused: LimitOutOfBounds: --capacity must be from 0.1 to 10000 BNB, and --refill-per-hour more than 0 and at most --capacity',
    );
    const quick = await run('vault:deploy', ...deployArgs({ 'min-payout-delay': '30' }));
    expect(quick.output).toBe(
      'Refused: DelayOutOfBounds: --min-payout-delay must be from 60 to 604800 seconds (1 minute to 7 days), not 30',
    );
    const bond = await run('vault:deploy', ...deployArgs({ 'dispute-bond-min': '20' }));
    expect(bond.output).toBe(
      'Refused: DisputeBondOutOfBounds: --dispute-bond-min must be from 0.001 to 10 BNB, and --dispute-bond-bps at most 2000',
    );
    expect(await chain.publicClient.getTransactionCount({ address: ADMIN })).toBe(nonce);
  });

  test('arguments missing or malformed: usage, exit code 64, nothing sent', async () => {
    const missing = await run('vault:deploy', ...deployArgs({ treasury: '' }));
    expect(missing.code).toBe(64);
    expect(missing.lines[0]).toBe('Give --treasury.');
    expect(missing.output).toContain('Usage: npm run ops -- vault:deploy --admin <address>');
    expect((await run('vault:deploy', ...deployArgs({ guardian: '0x1234' }))).lines[0]).toBe(
      "--guardian takes an address, not '0x1234'.",
    );
    expect((await run('vault:deploy', ...deployArgs({ capacity: '1e3' }))).lines[0]).toBe(
      "--capacity takes an amount of BNB like 100 or 0.5, not '1e3'.",
    );
    expect((await run('vault:deploy', ...deployArgs({ 'min-payout-delay': '1.5' }))).lines[0]).toBe(
      "--min-payout-delay takes whole seconds, not '1.5'.",
    );
    const config = settings();
    const keyless = await ops(
      { ...config, escrow: { ...config.escrow, adminPrivateKey: undefined } },
      'vault:deploy',
      ...deployArgs(),
    );
    expect(keyless.code).toBe(64);
    expect(keyless.lines[0]).toBe(
      'ESCROW_ADMIN_PRIVATE_KEY is not set: vault:deploy sends from its account.',
    );
  });
});

describe('vault:status', () => {
  test('the escrow at one block as a table, then the same as JSON', async () => {
    const result = await run('vault:status');
    expect(result.code, result.output).toBe(0);
    const status = await readStatus();
    const printed = result.json();
    expect(printed).toMatchObject({
      address: escrow,
      chainId: 31337,
      owner: ADMIN,
      pendingOwner: null,
      operator: OPERATOR,
      guardian: GUARDIAN,
      treasury: TREASURY,
      paused: false,
      balance: '0',
      liabilities: '0',
      excess: '0',
      settlementCapacity: parseEther('10000').toString(),
      minPayoutDelay: 60,
      disputeBondMin: parseEther('0.01').toString(),
      disputeBondBps: 500,
      codeHash: status.codeHash,
      constants: { MAX_FEE_BPS: '1000', ESCAPE_DELAY: '604800', PAYOUT_GAS_CAP: '50000', MAX_DISPUTES: '3' },
    });
    const table = result.lines.slice(0, -1);
    expect(table[0]).toBe(`PredictionEscrow ${escrow} on chain 31337 at block ${printed.blockNumber}`);
    expect(table).toContain(`  code            this build's (${status.codeHash})`);
    expect(table).toContain(`  admin           ${ADMIN}`);
    expect(table).toContain(`  operator        ${OPERATOR}`);
    expect(table).toContain('  paused          no');
    expect(table).toContain(
      '  dispute bond    the larger of 0.01 BNB (10000000000000000 wei) and 500 bps of the pool',
    );
    expect(table).toContain('  liabilities     0 BNB (0 wei)');
    expect(table).toContain(
      '  settlements     10000 BNB (10000000000000000000000 wei) can be drawn now, of 10000 BNB (10000000000000000000000 wei), refilled 10000 BNB (10000000000000000000000 wei) an hour',
    );
    expect(table.at(-1)).toMatch(/^ {2}constants {7}ESCAPE_DELAY 604800, .*MAX_FEE_BPS 1000/);
  });

  test('--block reads the state of that block; --address another escrow', async () => {
    const deployed = await run('vault:deploy', ...deployArgs());
    const { escrowAddress, blockNumber } = deployed.json();
    const result = await run('vault:status', '--address', escrowAddress, '--block', blockNumber);
    expect(result.json()).toMatchObject({ address: escrowAddress, blockNumber, minPayoutDelay: 600 });
  });

  test('no contract at the address, or no ESCROW_ADDRESS: refused, saying so', async () => {
    const player = getAddress(DEV_PLAYERS[0].address);
    const none = await run('vault:status', '--address', player);
    expect(none.code).toBe(1);
    expect(none.output).toMatch(new RegExp(`^Refused: No contract at ${player} at block \\d+$`));
    const unset = await ops(loadConfig({ RPC_URL: chain.rpcUrl }), 'vault:status');
    expect(unset.code).toBe(64);
    expect(unset.lines[0]).toBe('ESCROW_ADDRESS is not set: the escrow contract this command acts on.');
  });
});

describe('vault:pause and vault:unpause', () => {
  test("the operator's key in ESCROW_GUARDIAN_PRIVATE_KEY: refused, naming who may pause", async () => {
    const result = await ops(
      settings({ ESCROW_GUARDIAN_PRIVATE_KEY: DEV_OPERATOR.privateKey }),
      'vault:pause',
    );
    expect(result).toMatchObject({
      code: 1,
      output: `Refused: NotGuardian: pause is the guardian's call (${GUARDIAN}) or the admin's (${ADMIN}); ESCROW_GUARDIAN_PRIVATE_KEY is the key of ${OPERATOR} (the escrow's operator)`,
    });
    expect((await readStatus()).paused).toBe(false);
  });

  test('the guardian pauses; a second pause is refused: already paused', async () => {
    const result = await run('vault:pause');
    expect(result.code, result.output).toBe(0);
    expect(result.lines[0]).toMatch(
      new RegExp(
        `^Paused PredictionEscrow ${escrow} as the guardian ${GUARDIAN} \\(transaction 0x[0-9a-f]{64}, block \\d+\\)\\.$`,
      ),
    );
    expect(result.json()).toMatchObject({ action: 'pause', escrowAddress: escrow, from: GUARDIAN });
    expect((await readStatus()).paused).toBe(true);
    expect((await run('vault:pause')).output).toBe('Refused: EnforcedPause: the escrow is already paused');
    expect((await run('vault:status')).lines).toContain(
      '  paused          YES: deposits and settlements stop (claims, refunds and withdrawals go on)',
    );
  });

  test("unpause is the admin's: the guardian's key is refused; the admin's unpauses; again: not paused", async () => {
    const asGuardian = await ops(
      settings({ ESCROW_ADMIN_PRIVATE_KEY: DEV_ESCROW_ROLES.guardian.privateKey }),
      'vault:unpause',
    );
    expect(asGuardian.output).toBe(
      `Refused: OwnableUnauthorizedAccount: unpause is the admin's call (${ADMIN}); ESCROW_ADMIN_PRIVATE_KEY is the key of ${GUARDIAN} (the escrow's guardian)`,
    );
    expect((await readStatus()).paused).toBe(true);
    const result = await run('vault:unpause');
    expect(result.code, result.output).toBe(0);
    expect(result.lines[0]).toMatch(
      new RegExp(`^Unpaused PredictionEscrow ${escrow} as the admin ${ADMIN} `),
    );
    expect((await readStatus()).paused).toBe(false);
    expect((await run('vault:unpause')).output).toBe('Refused: ExpectedPause: the escrow is not paused');
  });

  test("no key for the role: usage, with the call to make from the role's account (a Safe)", async () => {
    const config = settings();
    const result = await ops(
      { ...config, escrow: { ...config.escrow, guardianPrivateKey: undefined } },
      'vault:pause',
    );
    expect(result.code).toBe(64);
    expect(result.lines[0]).toBe(
      `ESCROW_GUARDIAN_PRIVATE_KEY is not set. pause is the guardian's call (${GUARDIAN}): set its key, or send it from that account (from a Safe: a transaction to ${escrow} with data 0x8456cb59).`,
    );
    expect((await run('vault:pause', 'now')).lines[0]).toBe('vault:pause takes no arguments.');
  });
});

describe('vault:veto', () => {
  /** A market with one stake, closed and settled by the operator: its payouts open in 10 minutes. */
  async function pendingSettlement(name: string): Promise<Hex> {
    const id = keccak256(toHex(name));
    const closesAt = Number((await chain.publicClient.getBlock()).timestamp) + 3600;
    const bettor = chain.players[0];
    if (!bettor) throw new Error('no player');
    const depositHash = await bettor.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'deposit',
      args: [id, closesAt, 2, 1, toHex(0, { size: 32 }), toHex(0, { size: 32 })],
      value: parseEther('1'),
    });
    await chain.publicClient.waitForTransactionReceipt({ hash: depositHash });
    await chain.advanceTime(3601);
    const key = marketKey(id, closesAt);
    const tree = buildPayoutTree([{ stakeId: 1n, amount: parseEther('1') }]);
    const settleHash = await chain.operator.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'settle',
      args: [key, 1, keccak256(toHex('verdict')), tree.root, tree.total, 0n, 600],
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: settleHash });
    if (receipt.status !== 'success') throw new Error('settle reverted');
    return key;
  }

  test("the operator's key is refused (the guardian vetoes); the guardian's vetoes; again: nothing to veto", async () => {
    const key = await pendingSettlement('veto me');
    const asOperator = await ops(
      settings({ ESCROW_GUARDIAN_PRIVATE_KEY: DEV_OPERATOR.privateKey }),
      'vault:veto',
      key,
    );
    expect(asOperator.output).toBe(
      `Refused: NotGuardian: veto is the guardian's call (${GUARDIAN}); ESCROW_GUARDIAN_PRIVATE_KEY is the key of ${OPERATOR} (the escrow's operator)`,
    );
    const vetoed = await run('vault:veto', key);
    expect(vetoed.code, vetoed.output).toBe(0);
    expect(vetoed.lines[0]).toMatch(
      new RegExp(
        `^Vetoed the settlement of market ${key} in PredictionEscrow ${escrow} as the guardian ${GUARDIAN} `,
      ),
    );
    expect(vetoed.json()).toMatchObject({ action: 'veto', marketKey: key, from: GUARDIAN });
    const [, , , state] = await chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'markets',
      args: [key],
    });
    expect(state).toBe(3);
    expect((await run('vault:veto', key)).output).toBe(
      `Refused: NotVetoable: market ${key} has no settlement waiting to pay out: it is refunding already (voided, vetoed or past its escape delay)`,
    );
  });

  test('a settlement whose payouts opened, or a key nobody deposited under: nothing to veto, said why', async () => {
    const key = await pendingSettlement('too late');
    await chain.advanceTime(601);
    expect((await run('vault:veto', key)).output).toMatch(
      new RegExp(
        `^Refused: NotVetoable: market ${key} has no settlement waiting to pay out: its payouts opened at \\d{4}-\\d\\d-\\d\\dT.*Z: too late to veto$`,
      ),
    );
    const unknown = keccak256(toHex('nobody'));
    expect((await run('vault:veto', unknown)).output).toBe(
      `Refused: NotVetoable: market ${unknown} has no settlement waiting to pay out: no deposit was ever made under that key (is it the key, not the id?)`,
    );
    const malformed = await run('vault:veto', '0x1234');
    expect(malformed.code).toBe(64);
    expect(malformed.lines[0]).toBe(
      "Give the market's escrow key: 0x and 64 hex digits (PredictionEscrow.marketKey(id, closesAt)).",
    );
  });
});
