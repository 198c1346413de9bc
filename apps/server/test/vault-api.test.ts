import { ConfigResponseSchema } from '@pm/core/contract/config';
import { VaultResponseSchema } from '@pm/core/contract/vault';
import { ESCROW_CONSTANTS, expectedRuntimeCodeHash } from '@pm/escrow/deploy';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { getAddress, keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_ESCROW_ROLES, DEV_OPERATOR } from '../src/config/dev-accounts.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { VAULT_READ_EVERY_MS } from '../src/escrow/vault-routes.ts';
import { chainNow, deposit } from './support/escrow-contracts.ts';
import { createFaultyChainClient, type FaultyChainClient } from './support/faulty-chain.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { FRESH_CHAIN_DEV_ESCROW } from './support/test-escrow.ts';

// GET /api/vault (docs/decisions/026, docs/api.md "The escrow contract"): the one public description of the
// escrow, read from the chain at one block it names, at most every 2 s per instance; and /api/config's
// `escrow`. On the local chain, with npm start's escrow (the dev roles) deployed after the app starts.
// The app without an escrow is system.test.ts's.

const ESCROW = FRESH_CHAIN_DEV_ESCROW;

let t: TestApp;
let rpc: FaultyChainClient;

beforeAll(async () => {
  t = await startTestApp(
    { ESCROW_ADDRESS: ESCROW },
    {
      chainClient: (rpcUrl) => {
        rpc = createFaultyChainClient(rpcUrl);
        return rpc.client;
      },
    },
  );
});
afterAll(() => t?.close());

const getVault = () => t.app.inject({ method: 'GET', url: '/api/vault' });
/** Past the route's reading: the next request reads the chain again. */
const pastTheReading = () => new Promise((resolve) => setTimeout(resolve, VAULT_READ_EVERY_MS + 100));

async function readVault() {
  const response = await getVault();
  expect(response.statusCode, response.body).toBe(200);
  return VaultResponseSchema.parse(response.json());
}

describe('GET /api/vault', () => {
  test('an ESCROW_ADDRESS with no contract at it: 503 ESCROW_NOT_CONFIGURED, saying so', async () => {
    const response = await getVault();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: {
        code: 'ESCROW_NOT_CONFIGURED',
        message: expect.stringMatching(
          new RegExp(
            `^The configured escrow address holds no contract: No contract at ${ESCROW} at block \\d+\\.$`,
          ),
        ),
      },
    });
    const deployed = await deployDevEscrow(t.chain.rpcUrl);
    expect(deployed.address).toBe(ESCROW);
    await pastTheReading();
  });

  test("the escrow at one block: address, chain, this build's ABI and code, roles, limits, constants", async () => {
    const body = await readVault();
    expect(body).toMatchObject({
      address: ESCROW,
      chainId: 31337,
      codeHash: expectedRuntimeCodeHash(),
      roles: {
        owner: getAddress(DEV_ESCROW_ROLES.admin.address),
        pendingOwner: null,
        operator: getAddress(DEV_OPERATOR.address),
        guardian: getAddress(DEV_ESCROW_ROLES.guardian.address),
        treasury: getAddress(DEV_ESCROW_ROLES.treasury.address),
      },
      paused: false,
      balanceWei: '0',
      liabilitiesWei: '0',
      excessWei: '0',
      settlement: {
        capacityWei: parseEther('10000').toString(),
        refillPerHourWei: parseEther('10000').toString(),
        allowanceWei: parseEther('10000').toString(),
      },
      minPayoutDelayS: 60,
      disputeBond: { minWei: parseEther('0.01').toString(), bps: 500 },
      nextStakeId: '1',
      constants: { MAX_FEE_BPS: '1000', ESCAPE_DELAY: '604800', PAYOUT_GAS_CAP: '50000', MAX_DISPUTES: '3' },
    });
    // Every constant of the contract, none dropped by the schema.
    expect(Object.keys(body.constants).sort()).toEqual([...ESCROW_CONSTANTS].sort());
    // The ABI as JSON: what a client hands to its library to call the contract.
    expect(body.abi).toEqual(JSON.parse(JSON.stringify(predictionEscrowAbi)));
    expect(BigInt(body.blockNumber)).toBeLessThanOrEqual(await t.chain.publicClient.getBlockNumber());
  });

  test('a deposit shows once the 2 s reading is past; within it, one chain read serves every request', async () => {
    const before = await readVault();
    const bettor = t.chain.players[0];
    if (!bettor) throw new Error('no player');
    const amount = parseEther('0.5');
    const market = keccak256(toHex('vault api'));
    const closesAt = (await chainNow(t.chain)) + 3600;
    const hash = await deposit(bettor, ESCROW, { kind: 'bet', market, closesAt, prediction: 'YES' }, amount);
    const { blockNumber: depositBlock } = await t.chain.publicClient.waitForTransactionReceipt({ hash });

    // Within the reading's 2 s: the same answer, its block before the deposit, no call to the chain.
    rpc.resetCalls();
    for (let i = 0; i < 5; i++) expect(await readVault()).toEqual(before);
    expect(rpc.calls('eth_getCode')).toBe(0);

    await pastTheReading();
    rpc.resetCalls();
    const after = await readVault();
    expect(rpc.calls('eth_getCode')).toBe(1);
    const block = BigInt(after.blockNumber);
    expect(block).toBeGreaterThanOrEqual(depositBlock);
    expect(after).toMatchObject({
      balanceWei: amount.toString(),
      liabilitiesWei: amount.toString(),
      excessWei: '0',
      nextStakeId: '2',
    });
    // Each figure is the chain's at the block the answer names.
    const at = { address: ESCROW, abi: predictionEscrowAbi, blockNumber: block } as const;
    expect(after.balanceWei).toBe(
      (await t.chain.publicClient.getBalance({ address: ESCROW, blockNumber: block })).toString(),
    );
    expect(after.liabilitiesWei).toBe(
      (await t.chain.publicClient.readContract({ ...at, functionName: 'liabilities' })).toString(),
    );
  });

  test('an RPC that fails: 503 CHAIN_UNAVAILABLE, kept for the 2 s, then read again', async () => {
    await pastTheReading();
    rpc.fail('eth_getCode');
    try {
      const failed = await getVault();
      expect(failed.statusCode).toBe(503);
      expect(failed.json().error.code).toBe('CHAIN_UNAVAILABLE');
    } finally {
      rpc.heal();
    }
    // A down RPC is not asked again at every request.
    expect((await getVault()).statusCode).toBe(503);
    await pastTheReading();
    expect((await getVault()).statusCode).toBe(200);
  });

  test("the guardian's pause shows", async () => {
    const guardian = createChainWallet(
      { id: 31337, rpcUrl: t.chain.rpcUrl },
      DEV_ESCROW_ROLES.guardian.privateKey,
    );
    const hash = await guardian.writeContract({
      address: ESCROW,
      abi: predictionEscrowAbi,
      functionName: 'pause',
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash });
    await pastTheReading();
    expect((await readVault()).paused).toBe(true);
  });

  test('the OpenAPI document has it: the description at 200, the error shape at 503', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const responses = document.paths['/api/vault'].get.responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '503']));
    const schema = responses['200'].content['application/json'].schema;
    expect(schema.required).toEqual(
      expect.arrayContaining([
        'address',
        'chainId',
        'blockNumber',
        'abi',
        'roles',
        'balanceWei',
        'liabilitiesWei',
      ]),
    );
  });
});

describe('GET /api/config', () => {
  test('names the escrow and its chain', async () => {
    const body = ConfigResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/config' })).json(),
    );
    expect(body.escrow).toEqual({ address: ESCROW, chainId: 31337 });
  });
});
