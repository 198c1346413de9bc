import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marketKey } from '@pm/escrow/market-key';
import { claimFor, type PayoutListDocument, parsePayoutList, toPayoutList } from '@pm/escrow/payout-list';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { buildSettlement, settleArgs } from '@pm/escrow/settlement';
import { type Address, getAddress, type Hex, keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { findFreePort } from '../src/dev/local-chain.ts';
import { runOpsCommand } from '../src/ops/ops-commands.ts';
import { type VaultVerifyContext, vaultVerifyCommand } from '../src/ops/vault-verify-command.ts';
import { stakeIdsOf } from './support/deposit-chain.ts';
import { chainNow, deposit } from './support/escrow-contracts.ts';
import { escrowPayoutsOf, watchBalance } from './support/escrow-stakes.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';

// `npm run ops -- vault:verify` (docs/decisions/026, docs/operations.md "Contract operations") on the local
// chain: a market deposited into by three bettors, settled by the operator key (npm start's escrow),
// its list published and one payout claimed; the command checks the list from a file, a URL and this
// server's default address, finds the chain's disagreement with a forged list, and says when it could
// not check. Exit codes: 0 match, 1 mismatch, 2 not checked, 64 usage.

let chain: TestChain;
let escrow: Address;
let market: { id: Hex; closesAt: number; key: Hex };
let document: PayoutListDocument;
let forged: PayoutListDocument;
let dir: string;
let listFile: string;
let server: Server;
let serverPort: number;
/** What the loopback server publishes, by path. */
const published = new Map<string, string>();

beforeAll(async () => {
  chain = await startTestChain();
  escrow = (await deployDevEscrow(chain.rpcUrl)).address;

  const id = keccak256(toHex('vault:verify'));
  const closesAt = (await chainNow(chain)) + 3600;
  market = { id, closesAt, key: marketKey(id, closesAt) };
  const bets = [
    { player: 0, amount: parseEther('1'), side: 'YES' },
    { player: 1, amount: parseEther('2'), side: 'YES' },
    { player: 2, amount: parseEther('3'), side: 'NO' },
  ] as const;
  const stakes: { stakeId: bigint; owner: Address; amount: bigint; side: string }[] = [];
  for (const bet of bets) {
    const wallet = chain.players[bet.player];
    if (!wallet) throw new Error('no player');
    const hash = await deposit(
      wallet,
      escrow,
      { kind: 'bet', market: id, closesAt, prediction: bet.side },
      bet.amount,
    );
    const [stakeId] = await stakeIdsOf(chain, hash);
    if (stakeId === undefined) throw new Error('no stake');
    stakes.push({ stakeId, owner: getAddress(wallet.account.address), amount: bet.amount, side: bet.side });
  }
  await chain.advanceTime(3601);

  // YES wins: the two YES stakes share the pool less a 1 % fee, pro rata (the server's payout rule).
  const pool = parseEther('6');
  const fee = pool / 100n;
  const payouts = stakes
    .filter((stake) => stake.side === 'YES')
    .map((stake) => ({ stakeId: stake.stakeId, amount: ((pool - fee) * stake.amount) / parseEther('3') }));
  const settlement = buildSettlement({ pool, payouts, fee });
  const verdictHash = keccak256(toHex('YES, on the evidence'));
  const settled = await chain.operator.writeContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'settle',
    args: settleArgs(settlement, { marketKey: market.key, outcome: 1, verdictHash, delay: 60 }),
  });
  expect((await chain.publicClient.waitForTransactionReceipt({ hash: settled })).status).toBe('success');
  const listOf = (paid: typeof settlement) =>
    toPayoutList({
      chainId: 31337,
      escrow,
      market,
      outcome: 1,
      verdictHash,
      settlement: paid,
      stakes,
    });
  document = listOf(settlement);
  // A list that holds together but is not what the chain took: everything to the first bettor.
  const first = stakes[0];
  if (!first) throw new Error('no stake');
  forged = listOf(buildSettlement({ pool, payouts: [{ stakeId: first.stakeId, amount: pool - fee }], fee }));

  // Payouts open after the delay; anyone may relay a claim: the loser claims the first winner's.
  await chain.advanceTime(61);
  const claim = claimFor(parsePayoutList(document), first.stakeId);
  const relayer = chain.players[2];
  if (!relayer) throw new Error('no relayer');
  const firstPayout = payouts.find((payout) => payout.stakeId === first.stakeId)?.amount ?? 0n;
  // 1 of the 3 BNB on YES: a third of the 6 BNB pool less the 1 % fee.
  expect(firstPayout).toBe(parseEther('1.98'));
  const firstBalance = await watchBalance(chain, first.owner);
  const claimed = await relayer.writeContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'claim',
    args: [claim],
  });
  // The relayer pays the gas; the first winner receives exactly its payout.
  expect(await escrowPayoutsOf(chain, claimed)).toEqual([
    { kind: 'claimed', stakeId: first.stakeId, owner: first.owner, amount: firstPayout },
  ]);
  expect(await firstBalance.moved()).toBe(firstPayout);

  dir = await mkdtemp(join(tmpdir(), 'vault-verify-'));
  listFile = join(dir, 'list.json');
  await writeFile(listFile, JSON.stringify(document));

  // Where lists are published: this server's GET /api/payout-lists/<key>, on loopback.
  published.set(`/api/payout-lists/${market.key}`, JSON.stringify(document));
  published.set('/forged.json', JSON.stringify(forged));
  server = createServer((request, response) => {
    const body = published.get(request.url ?? '');
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverPort = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (dir) await rm(dir, { recursive: true, force: true });
  await chain?.stop();
});

/** The deployment's settings: this chain, its escrow, and the loopback server as this server's port. */
const settings =
  (env: Record<string, string> = {}) =>
  () =>
    loadConfig({
      RPC_URL: chain.rpcUrl,
      LOG_LEVEL: 'silent',
      ESCROW_ADDRESS: escrow,
      PORT: String(serverPort),
      ...env,
    });

async function verify(argv: string[], context: Partial<VaultVerifyContext> = {}) {
  const lines: string[] = [];
  const code = await runOpsCommand(
    ['vault:verify', ...argv],
    {
      out: (line: string) => lines.push(...line.split('\n')),
      settings: settings(),
      chain: chain.publicClient,
      ...context,
    },
    [vaultVerifyCommand],
  );
  return { code, lines, output: lines.join('\n'), json: () => JSON.parse(lines.at(-1) ?? '') };
}

const url = (path: string) => `http://127.0.0.1:${serverPort}${path}`;

describe('vault:verify', () => {
  test('the published list from a file matches the chain: the report, a JSON line, exit 0', async () => {
    const result = await verify([market.key, '--list', listFile]);
    expect(result.code, result.output).toBe(0);
    expect(result.lines[0]).toBe(`Market ${market.key} on chain 31337, escrow ${escrow}`);
    expect(result.lines[1]).toMatch(
      /^Read blocks 0 to \d+: 3 deposits, settled at block \d+, claims open at .*Z, 1 claims paying 1980000000000000000 wei \(0 as credits\); the list has 2 leaves\.$/,
    );
    expect(result.lines).toContain('✔ The payout list matches the chain.');
    expect(result.json()).toMatchObject({ source: listFile, ok: true, discrepancies: [] });
  });

  test("the market's escrow id names it as well as its key", async () => {
    expect((await verify([market.id, '--list', listFile])).code).toBe(0);
    expect((await verify([market.id.toUpperCase().replace('0X', '0x'), '--list', listFile])).code).toBe(0);
  });

  test('a list from a URL, and by default from this server (GET /api/payout-lists/<key>)', async () => {
    const fromUrl = await verify([market.key, '--list', url(`/api/payout-lists/${market.key}`)]);
    expect(fromUrl.code, fromUrl.output).toBe(0);
    const byDefault = await verify([market.key]);
    expect(byDefault.code, byDefault.output).toBe(0);
    expect(byDefault.json().source).toBe(url(`/api/payout-lists/${market.key}`));
  });

  test('with only an RPC and the list: no settings needed when --rpc and --escrow are given', async () => {
    const unconfigured = () => {
      throw new ConfigError('Invalid configuration:\n  RPC_URL: Invalid URL');
    };
    const result = await verify(['--rpc', chain.rpcUrl, '--escrow', escrow, market.key, '--list', listFile], {
      settings: unconfigured,
      chain: undefined,
    });
    expect(result.code, result.output).toBe(0);
    // Left out, --escrow needs the settings: their error is told, with what to give instead.
    const without = await verify(['--rpc', chain.rpcUrl, market.key, '--list', listFile], {
      settings: unconfigured,
    });
    expect(without.code).toBe(64);
    expect(without.output).toContain('RPC_URL: Invalid URL');
    expect(without.output).toContain(
      "Give --rpc, --escrow and --list to check without this deployment's settings.",
    );
  });

  test('a list the chain did not take: every discrepancy, then refused, exit 1', async () => {
    const result = await verify([market.key, '--list', url('/forged.json')]);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/✘ \d+ discrepancies:/);
    expect(result.output).toMatch(
      / {2}- The chain's settlement \(block \d+\) has root 0x[0-9a-f]{64}, the list says 0x[0-9a-f]{64}\./,
    );
    expect(result.output).toContain('the list says 5940000000000000000 wei');
    expect(result.lines.at(-1)).toMatch(
      new RegExp(
        `^Refused: the payout list of market ${market.key} does not match the chain \\(\\d+ discrepancies\\)\\.$`,
      ),
    );
    expect(JSON.parse(result.lines.at(-2) ?? '')).toMatchObject({ ok: false });
  });

  test('what it could not check: exit 2, saying why', async () => {
    const missing = await verify([keccak256(toHex('never settled'))]);
    expect(missing.code).toBe(2);
    expect(missing.output).toMatch(
      /^Could not check: GET http:\/\/127\.0\.0\.1:\d+\/api\/payout-lists\/0x[0-9a-f]{64} answered 404 /,
    );

    const other = keccak256(toHex('another market'));
    const wrongMarket = await verify([other, '--list', listFile]);
    expect(wrongMarket).toMatchObject({
      code: 2,
      output: `Could not check: ${listFile} is the list of market ${market.key} (id ${market.id}), not of ${other}.`,
    });

    const notAList = join(dir, 'not-a-list.json');
    await writeFile(notAList, '{"version": 1}');
    const unreadable = await verify([market.key, '--list', notAList]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.output).toContain(`Could not check: ${notAList}: Not a payout list (version 1)`);

    const player = getAddress(chain.players[0]?.account.address ?? '');
    const noContract = await verify([market.key, '--list', listFile, '--escrow', player]);
    expect(noContract.code).toBe(2);
    expect(noContract.output).toMatch(new RegExp(`^Could not check: no contract at ${player} at block \\d+`));

    const down = await verify(
      [market.key, '--list', listFile, '--rpc', `http://127.0.0.1:${await findFreePort()}`],
      {
        chain: undefined,
      },
    );
    expect(down.code).toBe(2);
    expect(down.output).toMatch(/^Could not check: the chain could not be read: /);
  });

  test('usage: a market that is no 32 bytes, no escrow anywhere, a bad block: exit 64', async () => {
    const malformed = await verify(['42']);
    expect(malformed.code).toBe(64);
    expect(malformed.lines[0]).toBe(
      "Give the market's escrow key (PredictionEscrow.marketKey(id, closesAt)) or its escrow id: 0x and 64 hex digits.",
    );
    expect(malformed.output).toContain('Usage: npm run ops -- vault:verify <marketKey or market id>');
    const noEscrow = await verify([market.key, '--list', listFile], {
      settings: () => loadConfig({ RPC_URL: chain.rpcUrl, LOG_LEVEL: 'silent' }),
    });
    expect(noEscrow.code).toBe(64);
    expect(noEscrow.lines[0]).toMatch(/^Give --escrow <address>, the escrow the bettors paid into/);
    expect((await verify([market.key, '--list', listFile, '--to-block', 'latest'])).lines[0]).toBe(
      "--to-block takes a block number, not 'latest'.",
    );
  });
});
