import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAIN_ID, PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import { devFeedAggregatorAbi } from '@pm/escrow/dev-feeds.gen';
import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_FEED_WRITER, DEV_OPERATOR } from '../src/config/dev-accounts.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate, readMigrationJournal } from '../src/db/migrate.ts';
import { queryRows } from '../src/db/query-rows.ts';
import { compiledServerCommand } from '../src/dev/compiled-server.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { deployDevFeeds } from '../src/dev/dev-feeds.ts';
import { findFreePort } from '../src/dev/local-chain.ts';
import { feedIdentityTitle } from '../src/doctor/price-checks.ts';
import { type DoctorOptions, runDoctor } from '../src/doctor/run-doctor.ts';
import { type AiStub, completion, startAiStub } from './support/ai-stub.ts';
import { deployMockAggregator, publishAggregatorRound } from './support/mock-aggregator.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';
import { openTestDatabase, type TestDatabase } from './support/test-database.ts';
import { json, startWebStub, type WebStub } from './support/web-stub.ts';

// `npm run ops -- doctor` (docs/operations.md "Preflight") against the local
// Hardhat chain, a real database, and the outside world on loopback: the AI endpoint, a
// SearXNG-shaped search engine and a JSON-RPC node of another chain. A good configuration passes
// every check (its price feeds the local chain's dev feeds); each check then fails on its own broken
// setting.

let chain: TestChain;
let database: TestDatabase;
let ai: AiStub;
let web: WebStub;
let otherChain: Server;
let otherChainUrl: string;
/** Each coin's dev feed (a proxy over its aggregator), updated when the file starts. */
let freshFeeds: Map<PriceSymbol, `0x${string}`>;
let staleAggregator: `0x${string}`;
let escrow: `0x${string}`;

/** A JSON-RPC node on loopback that says it is BSC mainnet (56). */
async function startOtherChain(): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { id, method } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: number;
        method: string;
      };
      const answers: Record<string, string> = { eth_chainId: '0x38', eth_blockNumber: '0x10' };
      const result = answers[method];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          result === undefined
            ? { jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } }
            : { jsonrpc: '2.0', id, result },
        ),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

const deployAggregator = () => deployMockAggregator(chain);

const publishRound = (aggregator: `0x${string}`, roundId: bigint, updatedAt: bigint) =>
  publishAggregatorRound(chain, aggregator, { roundId, answer: 612_34000000n, updatedAt });

/** The local chain's dev feeds, each coin's with one round of 612.34 USD published now. */
async function deployFreshDevFeeds(): Promise<Map<PriceSymbol, `0x${string}`>> {
  const feeds = await deployDevFeeds(chain.rpcUrl);
  const writer = createChainWallet({ id: CHAIN_ID.local, rpcUrl: chain.rpcUrl }, DEV_FEED_WRITER.privateKey);
  for (const feed of feeds.values()) {
    const hash = await writer.writeContract({
      address: feed.aggregator,
      abi: devFeedAggregatorAbi,
      functionName: 'publish',
      args: [612_34000000n],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
  }
  return new Map([...feeds].map(([symbol, feed]) => [symbol, feed.proxy]));
}

const freshFeed = (symbol: PriceSymbol): `0x${string}` => {
  const address = freshFeeds.get(symbol);
  if (!address) throw new Error(`no feed for ${symbol}`);
  return address;
};

beforeAll(async () => {
  [chain, database, ai, web, otherChain] = await Promise.all([
    startTestChain(),
    openTestDatabase(),
    startAiStub(),
    startWebStub(),
    startOtherChain(),
  ]);
  const address = otherChain.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  otherChainUrl = `http://127.0.0.1:${address.port}`;
  ai.reply(() => completion({ ok: true }));
  web.route('/search', json({ results: [{ url: 'https://example.com/a', title: 'A', content: 'a' }] }));
  escrow = (await deployDevEscrow(chain.rpcUrl)).address;
  freshFeeds = await deployFreshDevFeeds();
  staleAggregator = await deployAggregator();
  const { timestamp } = await chain.publicClient.getBlock();
  await publishRound(staleAggregator, 3n, timestamp - 3600n);
});
afterAll(async () => {
  otherChain?.close();
  await Promise.all([chain?.stop(), database?.close(), ai?.close(), web?.close()]);
});

/** A deployment on the local chain with every part configured and answering. */
function goodEnv(): Record<string, string> {
  return {
    RPC_URL: chain.rpcUrl,
    ESCROW_ADDRESS: escrow,
    // Another spelling of the same node, so the check asks it rather than reusing RPC_URL's answer.
    PUBLIC_RPC_URL: `${chain.rpcUrl}/`,
    PRICE_FEED: 'chainlink',
    CHAINLINK_FEED_ADDRESS: freshFeed('BNB'),
    CHAINLINK_FEED_ADDRESSES: PRICE_SYMBOLS.map((symbol) => `${symbol}=${freshFeed(symbol)}`).join(','),
    AI_BASE_URL: ai.url,
    SEARCH_PROVIDER: 'searxng',
    SEARCH_URL: web.origin,
    // The fresh aggregator was updated when the file started; a loaded machine must not age it out.
    ORACLE_MAX_AGE_S: '1800',
  };
}

async function doctor(env: Record<string, string>, options: Partial<DoctorOptions> = {}) {
  const lines: string[] = [];
  const code = await runDoctor({
    env,
    out: (line) => lines.push(line),
    openDatabase: async () => ({ db: database.db, label: 'the test database', close: async () => {} }),
    ...options,
  });
  /** The line of the check whose title starts with `title`. */
  const line = (title: string) => {
    const found = lines.find((each) => each.slice(2).startsWith(title));
    if (!found) throw new Error(`no line for "${title}" in:\n${lines.join('\n')}`);
    return found;
  };
  return { code, lines, output: lines.join('\n'), line };
}

describe('ops doctor', () => {
  test('a good configuration: every check ✔, one line each, exit code 0', async () => {
    const result = await doctor(goodEnv());
    expect(result.code, result.output).toBe(0);
    const checks = result.lines.slice(0, -1);
    expect(
      checks.every((line) => line.startsWith('✔ ')),
      result.output,
    ).toBe(true);
    expect(result.lines.at(-1)).toBe(`Ready: all ${checks.length} checks passed.`);
    expect(result.line('settings parse')).toBe(
      '✔ settings parse: CHAIN_ID 31337, PRICE_FEED chainlink, database PGlite under .data',
    );
    expect(result.line('RPC_URL serves CHAIN_ID 31337')).toMatch(
      /^✔ RPC_URL serves CHAIN_ID 31337: at block \d+$/,
    );
    expect(result.line('RPC_URL answers a batch')).toBe(
      '✔ RPC_URL answers a batch of RPC_BATCH_SIZE (20) calls: a batch of 20 calls was answered',
    );
    expect(result.line('OPERATOR_PRIVATE_KEY is set and has gas')).toMatch(
      new RegExp(
        `^✔ OPERATOR_PRIVATE_KEY is set and has gas: ${getAddress(DEV_OPERATOR.address)} holds [\\d.]+ BNB for gas$`,
      ),
    );
    expect(result.line('database answers')).toMatch(/^✔ database answers: the test database, PostgreSQL \d+/);
    const journal = await readMigrationJournal();
    expect(result.line('database migrations')).toBe(
      `✔ database migrations are current: ${journal.length} applied, the latest ${journal.at(-1)?.tag}`,
    );
    expect(result.line('escrow balance')).toMatch(
      /^✔ escrow balance covers its liabilities: [\d.]+ BNB ≥ [\d.]+ BNB owed at block \d+$/,
    );
    for (const symbol of PRICE_SYMBOLS) {
      expect(result.line(`price feed ${symbol}`)).toMatch(
        new RegExp(
          `^✔ price feed ${symbol} \\(chainlink ${getAddress(freshFeed(symbol))}\\): 612.3400 USD, updated \\d+ s ago$`,
        ),
      );
      expect(result.line(feedIdentityTitle(symbol))).toBe(`✔ ${feedIdentityTitle(symbol)}`);
    }
    expect(result.line('price feed addresses')).toMatch(
      /^✔ price feed addresses are Chainlink's published BSC mainnet proxies: chain 31337 is not BSC mainnet; /,
    );
    expect(result.line('AI model')).toBe(
      '✔ AI model gpt-4o-mini answers a structured request: structured answer',
    );
    expect(result.line('search provider')).toBe(
      '✔ search provider searxng answers: 1 result for "BNB Chain"',
    );
    expect(result.line('PUBLIC_RPC_URL')).toBe('✔ PUBLIC_RPC_URL serves CHAIN_ID 31337');
    // The AI check asks for structured output, as the judge does.
    expect(ai.requests.at(-1)?.body).toMatchObject({
      model: 'gpt-4o-mini',
      response_format: { type: 'json_schema', json_schema: { name: 'health_check', strict: true } },
    });
    expect(web.paths()).toContain('/search?q=BNB+Chain&format=json');
  });

  test('settings that do not parse: the problems, nothing else checked, exit code 1', async () => {
    const result = await doctor({ ...goodEnv(), CHAIN_ID: 'fifty-six', SEARCH_URL: '' });
    expect(result.code).toBe(1);
    expect(result.lines[0]).toBe('✖ settings parse: the server would refuse to start');
    expect(result.output).toContain('CHAIN_ID: Invalid input: expected number');
    expect(result.lines.slice(1).every((line) => line.startsWith('    '))).toBe(true);
    const refused = await doctor({ ...goodEnv(), SEARCH_URL: '' });
    expect(refused.lines).toEqual([
      '✖ settings parse: the server would refuse to start',
      '    SEARCH_URL: required when SEARCH_PROVIDER is searxng (its base URL)',
    ]);
  });

  test('RPC_URL of another chain: ✖, and the checks that read the chain through it are skipped', async () => {
    const result = await doctor({ ...goodEnv(), RPC_URL: otherChainUrl });
    expect(result.code).toBe(1);
    expect(result.line('RPC_URL')).toBe('✖ RPC_URL serves CHAIN_ID 31337: it serves chain 56, not 31337');
    const skipped = 'skipped, as "RPC_URL serves CHAIN_ID 31337" did not pass';
    expect(result.line('OPERATOR_PRIVATE_KEY')).toBe(`- OPERATOR_PRIVATE_KEY is set and has gas: ${skipped}`);
    expect(result.line('escrow balance')).toMatch(/^- escrow balance covers its liabilities: skipped/);
    expect(result.line('price feed BNB')).toMatch(/^- price feed BNB .*: skipped/);
    // The others still run.
    expect(result.line('database answers')).toMatch(/^✔/);
    expect(result.line('PUBLIC_RPC_URL')).toBe('✔ PUBLIC_RPC_URL serves CHAIN_ID 31337');
    expect(result.line('RPC_URL answers a batch')).toMatch(/^- RPC_URL answers a batch .*: skipped/);
    // The batch, the operator's gas, the escrow's eight checks, the eight price feeds' readings and
    // identities, and their addresses.
    expect(result.lines.at(-1)).toBe('Not ready: 1 check failed, 27 skipped.');
  });

  test('an RPC_URL where nothing listens: ✖ with the reason, never its key', async () => {
    const port = await findFreePort();
    const result = await doctor({
      ...goodEnv(),
      RPC_URL: `http://127.0.0.1:${port}/v1/SECRETKEY123`,
      PUBLIC_RPC_URL: chain.rpcUrl,
    });
    expect(result.code).toBe(1);
    expect(result.line('RPC_URL')).toMatch(/^✖ RPC_URL serves CHAIN_ID 31337: .*ECONNREFUSED/);
    expect(result.output).not.toContain('SECRETKEY123');
  });

  test('an operator key without gas: ✖ naming its address, never the key', async () => {
    const key = generatePrivateKey();
    const result = await doctor({ ...goodEnv(), OPERATOR_PRIVATE_KEY: key });
    expect(result.code).toBe(1);
    expect(result.line('OPERATOR_PRIVATE_KEY')).toBe(
      `✖ OPERATOR_PRIVATE_KEY is set and has gas: ${privateKeyToAccount(key).address} has no BNB to pay gas with`,
    );
    expect(result.output).not.toContain(key.slice(2));
  });

  test('a setting of the retired vault: ✖ settings parse, naming what replaces it', async () => {
    const result = await doctor({ ...goodEnv(), VAULT_PRIVATE_KEY: generatePrivateKey() });
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      '✖ settings parse: the server would refuse to start',
      "    VAULT_PRIVATE_KEY: retired: set OPERATOR_PRIVATE_KEY, the operator key (gas only, never bettors' money)",
    ]);
  });

  test('no ESCROW_ADDRESS: ✖, every bet would be refused', async () => {
    const result = await doctor({ ...goodEnv(), ESCROW_ADDRESS: '' });
    expect(result.code).toBe(1);
    expect(result.line('escrow contract')).toBe(
      '✖ escrow contract: ESCROW_ADDRESS is not set: every stake is a deposit into it, so every bet is refused',
    );
  });

  test('a stale price feed: ✖ "stale: updated N s ago"; one that does not answer: ✖; the others ✔', async () => {
    // The stale one is the mock aggregator, which says it is "BNB / USD (mock)": BTC's identity fails too.
    const missing = '0x000000000000000000000000000000000000dEaD';
    const overrides = `${goodEnv().CHAINLINK_FEED_ADDRESSES},BTC=${staleAggregator},ETH=${missing}`;
    const result = await doctor({ ...goodEnv(), CHAINLINK_FEED_ADDRESSES: overrides });
    expect(result.code).toBe(1);
    expect(result.line('price feed BTC')).toMatch(
      new RegExp(
        `^✖ price feed BTC \\(chainlink ${getAddress(staleAggregator)}\\): stale: updated 36\\d\\d s ago \\(ORACLE_MAX_AGE_S is 1800\\)$`,
      ),
    );
    expect(result.line('price feed ETH')).toMatch(
      /^✖ price feed ETH \(chainlink 0x000000000000000000000000000000000000dEaD\): UNAVAILABLE: The Chainlink aggregator could not be read: /,
    );
    const others = PRICE_SYMBOLS.filter((symbol) => symbol !== 'BTC' && symbol !== 'ETH');
    expect(result.line(feedIdentityTitle('BTC'))).toBe(
      `✖ ${feedIdentityTitle('BTC')}: its description is "BNB / USD (mock)", not "BTC / USD": not BTC's USD feed`,
    );
    expect(result.line(feedIdentityTitle('ETH'))).toMatch(
      /^✖ .*: decimals\(\) and description\(\) could not be read: /,
    );
    for (const symbol of others) {
      expect(result.line(`price feed ${symbol}`)).toMatch(/^✔/);
      expect(result.line(feedIdentityTitle(symbol))).toMatch(/^✔/);
    }
    expect(result.lines.at(-1)).toBe('Not ready: 4 checks failed.');
  });

  test('an exchange ticker per coin (PRICE_FEED=ticker): each coin read from its own URL', async () => {
    web.route('/ticker', (request) => {
      const pair = new URL(request.path, web.origin).searchParams.get('symbol') ?? '';
      return pair === 'DOGEUSDT'
        ? { status: 503, body: 'maintenance' }
        : json({ symbol: pair, price: '1.5' });
    });
    const result = await doctor({ ...goodEnv(), PRICE_FEED: 'ticker', TICKER_URL: web.url('/ticker') });
    expect(result.line('price feed BNB')).toMatch(
      new RegExp(
        `^✔ price feed BNB \\(ticker 127\\.0\\.0\\.1:${web.port}\\): 1\\.5000 USD, updated \\d+ s ago$`,
      ),
    );
    expect(result.line('price feed DOGE')).toBe(
      `✖ price feed DOGE (ticker 127.0.0.1:${web.port}): HTTP_ERROR: The ticker answered HTTP 503`,
    );
    expect(web.paths()).toContain('/ticker?symbol=BTCUSDT');
  });

  test('the simulated feed counts as answering', async () => {
    const result = await doctor({ ...goodEnv(), PRICE_FEED: 'simulated' });
    expect(result.code).toBe(0);
    expect(result.line('price feeds')).toBe('✔ price feeds: simulated, a random walk (local chain only)');
  });

  test('migrations behind the journal, or unknown to it: ✖', async () => {
    const journal = await readMigrationJournal();
    const latest = journal.at(-1)?.tag ?? '';
    await database.db.execute(sql`delete from schema_migrations where tag = ${latest}`);
    try {
      const result = await doctor(goodEnv());
      expect(result.code).toBe(1);
      expect(result.line('database migrations')).toBe(
        `✖ database migrations are current: 1 of ${journal.length} not applied: ${latest}; the server applies them at its start`,
      );
    } finally {
      await database.db.execute(sql`insert into schema_migrations (tag) values (${latest})`);
    }
    // Doctor never migrates: the row is still missing until the server's migrate runs.
    await database.db.execute(sql`insert into schema_migrations (tag) values ('9999_from_the_future')`);
    try {
      const result = await doctor(goodEnv());
      expect(result.line('database migrations')).toBe(
        '✖ database migrations are current: applied migrations this version does not know: 9999_from_the_future (the database is newer than this build)',
      );
    } finally {
      await database.db.execute(sql`delete from schema_migrations where tag = '9999_from_the_future'`);
    }
  });

  test('a DATABASE_URL where nothing listens: ✖ with the reason, never the password', async () => {
    const port = await findFreePort();
    const result = await doctor(
      { ...goodEnv(), DATABASE_URL: `postgres://app:DBPASSWORD@127.0.0.1:${port}/pm` },
      { openDatabase: undefined },
    );
    expect(result.code).toBe(1);
    expect(result.line('database answers')).toMatch(/^✖ database answers: .*ECONNREFUSED/);
    expect(result.line('database migrations')).toBe(
      '- database migrations are current: skipped, as "database answers" did not pass',
    );
    expect(result.output).not.toContain('DBPASSWORD');
  });

  test.runIf(process.env.TEST_DB === 'postgres')('DATABASE_URL: doctor opens PostgreSQL itself', async () => {
    const url = new URL(database.url ?? '');
    url.searchParams.set('options', `-c search_path=${database.schema}`);
    const result = await doctor({ ...goodEnv(), DATABASE_URL: url.toString() }, { openDatabase: undefined });
    expect(result.line('database answers')).toMatch(
      new RegExp(`^✔ database answers: PostgreSQL at ${url.host}${url.pathname}, PostgreSQL \\d+`),
    );
    expect(result.line('database migrations')).toMatch(/^✔/);
    expect(result.code, result.output).toBe(0);
  });

  test('doctor does not migrate a database that is behind', async () => {
    const journal = await readMigrationJournal();
    const latest = journal.at(-1)?.tag ?? '';
    await database.db.execute(sql`delete from schema_migrations where tag = ${latest}`);
    try {
      await doctor(goodEnv());
      const rows = await queryRows(
        database.db,
        sql`select tag from schema_migrations where tag = ${latest}`,
        z.object({ tag: z.string() }),
      );
      expect(rows).toEqual([]);
    } finally {
      await database.db.execute(sql`insert into schema_migrations (tag) values (${latest})`);
    }
  });

  test('the AI endpoint down, failing, hanging or off-schema: ✖; one line per model', async () => {
    const port = await findFreePort();
    const down = await doctor({ ...goodEnv(), AI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    expect(down.code).toBe(1);
    expect(down.line('AI model')).toBe(
      '✖ AI model gpt-4o-mini answers a structured request: the resolver could not be reached (ECONNREFUSED)',
    );

    ai.reply(() => ({ status: 500, body: 'model overloaded' }));
    try {
      const failing = await doctor({ ...goodEnv(), AI_MODELS: 'gpt-4o-mini,second-model' });
      expect(failing.line('AI model gpt-4o-mini')).toBe(
        '✖ AI model gpt-4o-mini answers a structured request: HTTP 500 from the resolver: model overloaded',
      );
      expect(failing.line('AI model second-model')).toMatch(
        /^✖ AI model second-model answers a structured request: HTTP 500/,
      );

      ai.reply(() => completion('Sure! ok'));
      const prose = await doctor(goodEnv());
      expect(prose.line('AI model')).toBe(
        '✖ AI model gpt-4o-mini answers a structured request: the answer is not JSON: the endpoint may not support structured output (json_schema)',
      );

      ai.reply(() => 'hang');
      const hanging = await doctor(goodEnv(), { timeouts: { aiMs: 1_000 } });
      expect(hanging.line('AI model')).toBe(
        '✖ AI model gpt-4o-mini answers a structured request: no answer within 1000 ms',
      );
    } finally {
      ai.reply(() => completion({ ok: true }));
    }
  });

  test('no AI configured: ✔ with a note', async () => {
    const result = await doctor({ ...goodEnv(), AI_BASE_URL: '' });
    expect(result.code).toBe(0);
    expect(result.line('AI endpoint')).toBe(
      '✔ AI endpoint: not configured (AI_BASE_URL unset): every market waits for an operator',
    );
  });

  test('the search provider down or refusing JSON: ✖; none configured: ✔ with a note', async () => {
    web.route('/search', { status: 403, body: 'forbidden' });
    try {
      const refusing = await doctor(goodEnv());
      expect(refusing.code).toBe(1);
      expect(refusing.line('search provider')).toBe(
        '✖ search provider searxng answers: SEARCH_HTTP_403: enable JSON output in its settings.yml (search: formats: [html, json])',
      );
    } finally {
      web.route('/search', json({ results: [] }));
    }
    const port = await findFreePort();
    const down = await doctor({ ...goodEnv(), SEARCH_URL: `http://127.0.0.1:${port}` });
    expect(down.line('search provider')).toMatch(
      /^✖ search provider searxng answers: fetch failed \(ECONNREFUSED\)$/,
    );
    const none = await doctor({ ...goodEnv(), SEARCH_PROVIDER: '', SEARCH_URL: '' });
    expect(none.line('search provider')).toBe(
      "✔ search provider: not configured (SEARCH_PROVIDER unset): the judge reads only the URLs a market's creator named",
    );
  });

  test('PUBLIC_RPC_URL of another chain: ✖', async () => {
    const result = await doctor({ ...goodEnv(), PUBLIC_RPC_URL: otherChainUrl });
    expect(result.code).toBe(1);
    expect(result.line('PUBLIC_RPC_URL')).toBe(
      '✖ PUBLIC_RPC_URL serves CHAIN_ID 31337: it serves chain 56, not 31337: wallets would pay there',
    );
    const unset = await doctor({ ...goodEnv(), PUBLIC_RPC_URL: '' });
    expect(unset.line('PUBLIC_RPC_URL')).toBe(
      '✔ PUBLIC_RPC_URL serves CHAIN_ID 31337: unset: browsers get RPC_URL, checked above',
    );
  });
});

describe('npm run ops -- doctor, the compiled CLI spawned', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pm-doctor-'));
    // The deployment's PGlite, migrated as the server's first start would.
    const pglite = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    await migrate(pglite.db);
    await pglite.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  test('prints one line per check and exits 1 exactly when one is not ✔', async () => {
    const root = new URL('../../../', import.meta.url);
    // Only what the CLI needs: no DATABASE_URL from the test's own environment.
    const env = { PATH: process.env.PATH ?? '', ...goodEnv(), DATA_DIR: dataDir };
    // The compiled CLI, as `npm run ops -- doctor` runs it (decision 021).
    const { command, args } = compiledServerCommand('ops');
    const child = spawn(command, [...args, 'doctor'], {
      cwd: new URL('apps/server/', root).pathname,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0], stderr).toBe(
      `✔ settings parse: CHAIN_ID 31337, PRICE_FEED chainlink, database PGlite under ${dataDir}`,
    );
    const databaseLine = lines.find((line) => line.includes('database answers')) ?? '';
    expect(
      databaseLine.startsWith(`✔ database answers: PGlite at ${join(dataDir, 'pglite')}, PostgreSQL `),
    ).toBe(true);
    expect(lines.find((line) => line.includes('database migrations'))).toMatch(/^✔/);
    // The escrow's own figures, as GET /api/solvency reads them.
    const balance = lines.find((line) => line.includes('escrow balance covers its liabilities')) ?? '';
    expect(balance).toMatch(
      /^✔ escrow balance covers its liabilities: [\d.]+ BNB ≥ [\d.]+ BNB owed at block \d+$/,
    );
    // Every check passes, and the exit code says so.
    const checks = lines.slice(0, -1);
    expect(checks.filter((line) => !line.startsWith('✔ '))).toEqual([]);
    expect(code).toBe(0);
  });
});
