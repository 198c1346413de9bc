import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestClient, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { baseUrl, expect, rpcUrl, test } from '../support/fixtures.ts';

// docs/api.md "Examples": what a bot author copies, run as they would run it, against the whole stack
// (the chain, the escrow, the API): `npm run example -- create-price …` then `npm run example -- bet …`.
// Each prints its transaction and, as its last line, what the API recorded, as JSON.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** What the API recorded, as the example's last line prints it (the fields this spec reads). */
type Recorded = {
  market: { id: number; escrowId: string } & Record<string, unknown>;
  bet: Record<string, unknown>;
};

async function example(privateKey: string, args: string[]) {
  const { stdout } = await run('npx', ['tsx', 'examples/run.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, PRIVATE_KEY: privateKey, RPC_URL: rpcUrl(), API_URL: baseUrl() },
    timeout: 120_000,
  });
  const lines = stdout.trim().split('\n');
  return { lines, recorded: JSON.parse(lines.at(-1) ?? 'null') as Recorded };
}

test('a bot creates a price market and another bets on it with the runnable examples', async () => {
  test.setTimeout(240_000);
  const creatorKey = generatePrivateKey();
  const bettorKey = generatePrivateKey();
  const chain = createTestClient({ mode: 'hardhat', transport: http(rpcUrl()) });
  for (const key of [creatorKey, bettorKey])
    await chain.setBalance({ address: privateKeyToAccount(key).address, value: parseEther('1') });

  const created = await example(creatorKey, [
    'create-price',
    'BTC',
    'above',
    '100000',
    'hourly',
    'YES',
    '0.01',
  ]);
  expect(created.lines[0]).toMatch(/^deposit 0x[0-9a-f]{64} /);
  const market = created.recorded.market;
  expect(market).toMatchObject({ betType: 'price_prediction', targetSymbol: 'BTC', status: 'active' });
  expect(market.escrowId).toMatch(/^0x[0-9a-f]{64}$/);
  expect(created.recorded.bet).toMatchObject({
    prediction: 'YES',
    amountWei: parseEther('0.01').toString(),
    isCreator: true,
  });

  const bet = await example(bettorKey, ['bet', String(market.id), 'NO', '0.02']);
  expect(bet.lines[0]).toMatch(/^deposit 0x[0-9a-f]{64} /);
  expect(bet.recorded.bet).toMatchObject({
    marketId: market.id,
    prediction: 'NO',
    amountWei: parseEther('0.02').toString(),
    userAddress: privateKeyToAccount(bettorKey).address.toLowerCase(),
  });
});

test('an example refuses a bad command line with its usage, and sends nothing', async () => {
  const failed = await run('npx', ['tsx', 'examples/run.ts', 'bet', '1', 'MAYBE', '0.01'], {
    cwd: ROOT,
    env: { ...process.env, PRIVATE_KEY: generatePrivateKey(), RPC_URL: rpcUrl(), API_URL: baseUrl() },
  }).catch((error: { code: number; stderr: string }) => error);
  expect(failed).toMatchObject({ code: 2 });
  expect((failed as { stderr: string }).stderr).toContain('the side must be YES or NO');
  expect((failed as { stderr: string }).stderr).toContain('npm run example -- bet <marketId>');
});
