import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JoinMarketResponseSchema, ListMarketsResponseSchema } from '@pm/core/contract/markets';
import { fetchTransport } from '@pm/pay-and-post/fetch-transport';
import { payForBet, postBet } from '@pm/pay-and-post/pay-and-post-bet';
import { walletPayer } from '@pm/pay-and-post/payer';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledServerCommand } from '../src/dev/compiled-server.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { findFreePort } from '../src/dev/local-chain.ts';
import { NODE_FLAGS } from '../src/runtime/node-flags.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';

// The compiled server (apps/server/dist/main.js, decision 021) as production runs it: `node`, no
// tsx, its own process and port, on PGlite in a fresh directory. A real payment becomes a bet over
// real HTTP, and SIGTERM stops it cleanly. The e2e and chaos suites run this same build.

let chain: TestChain;
let server: ChildProcess;
let baseUrl: string;
let escrow: `0x${string}`;
let output = '';
const dataDir = mkdtempSync(join(tmpdir(), 'pm-compiled-'));

beforeAll(async () => {
  chain = await startTestChain();
  // Markets are created by deposits into the escrow (decision 026), as `npm start` deploys it.
  escrow = (await deployDevEscrow(chain.rpcUrl)).address;
  const port = await findFreePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const { command, args } = compiledServerCommand();
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.DATABASE_URL;
  server = spawn(command, args, {
    env: {
      ...env,
      PORT: String(port),
      RPC_URL: chain.rpcUrl,
      ESCROW_ADDRESS: escrow,
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  server.stdout?.on('data', collect);
  server.stderr?.on('data', collect);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && server.exitCode === null) {
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The compiled server did not become healthy:\n${output}`);
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  await chain?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('runs from dist/ with source maps, not from the TypeScript sources', () => {
    const { args } = compiledServerCommand();
    expect(args).toEqual([
      '--import',
      expect.stringMatching(/apps\/server\/dist\/source-maps\.js$/),
      ...NODE_FLAGS,
      expect.stringMatching(/apps\/server\/dist\/main\.js$/),
    ]);
    expect(args.join(' ')).not.toContain('tsx');
  });

  it('migrates, seeds and answers the API and its OpenAPI document', async () => {
    const list = ListMarketsResponseSchema.parse(await (await fetch(`${baseUrl}/api/markets`)).json());
    expect(list.markets.length).toBeGreaterThan(0);
    const openapi = await fetch(`${baseUrl}/api/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { paths: object }).paths).toHaveProperty(['/api/markets/{id}/bets']);
  });

  it('records a real payment as a bet', async () => {
    const list = ListMarketsResponseSchema.parse(
      await (await fetch(`${baseUrl}/api/markets?status=open`)).json(),
    );
    const market = list.markets[0];
    if (!market) throw new Error('no active demo market');
    const player = chain.players[1];
    if (!player) throw new Error('no player #1');
    if (!market.escrowId) throw new Error('a demo market without its escrow id');
    const bet = {
      marketId: market.id,
      escrowId: market.escrowId as `0x${string}`,
      closesAt: market.closesAt,
      prediction: 'NO',
      amountWei: parseEther('0.01'),
    } as const;
    const txHash = await payForBet(walletPayer(player), escrow, bet);
    await player.waitForTransactionReceipt({ hash: txHash });
    const { response } = await postBet(fetchTransport(baseUrl), {
      ...bet,
      userAddress: player.account.address,
      txHash,
    });
    expect(response.status, output).toBe(201);
    expect(JoinMarketResponseSchema.parse(response.json).bet).toMatchObject({
      amountWei: bet.amountWei.toString(),
      txHash,
    });
  });

  it("reads a page in the evidence reader's thread built beside main.js, under the production flags", () => {
    // main.js finds its reader at ./page-worker.js (pageWorkerUrl, page-readers.test.ts); here the
    // built file runs in a piscina thread as the server's pool runs it, the flags inherited.
    const worker = fileURLToPath(new URL('../dist/page-worker.js', import.meta.url));
    expect(existsSync(worker)).toBe(true);
    const { args } = compiledServerCommand();
    // The server's own arguments but its entry: --import dist/source-maps.js and NODE_FLAGS.
    const run = spawnSync(
      process.execPath,
      [
        ...args.slice(0, -1),
        fileURLToPath(new URL('support/read-page-in-thread.mjs', import.meta.url)),
        worker,
      ],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      title: 'Box score',
      text: 'The Lakers beat the Celtics 110 to 102.',
    });
  });

  it('stops cleanly on SIGTERM', async () => {
    server.kill('SIGTERM');
    const [code] = await once(server, 'exit');
    expect(code).toBe(0);
  });
});
