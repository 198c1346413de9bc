import { CHAIN_ID } from '@pm/core/constants';
import { deployEscrow, type EscrowDeployment } from '@pm/escrow/deploy';
import { predictionEscrowAbi, predictionEscrowDeployedBytecode } from '@pm/escrow/prediction-escrow.gen';
import { type Address, getAddress, type Hex, pad, toHex, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_ESCROW_ROLES, DEV_OPERATOR, DEV_PLAYERS } from '../src/config/dev-accounts.ts';
import { DEV_ESCROW_DEPLOYMENT, deployDevEscrow } from '../src/dev/dev-escrow.ts';
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
