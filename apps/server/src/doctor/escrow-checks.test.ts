import type { EscrowStatus } from '@pm/escrow/deploy';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { DEV_OPERATOR } from '../config/dev-accounts.ts';
import {
  checkEscrowCoversLiabilities,
  checkEscrowDeployBlock,
  checkEscrowOperator,
} from './escrow-checks.ts';

// The branches of the escrow checks a real contract cannot reach (doctor-escrow.test.ts runs the rest
// on the local chain): a contract whose balance is below its liabilities, and a server with no key.

const operator = privateKeyToAccount(DEV_OPERATOR.privateKey).address;
const status = (overrides: Partial<EscrowStatus>) =>
  ({
    blockNumber: 7n,
    balance: 0n,
    liabilities: 0n,
    operator,
    owner: '0x1',
    pendingOwner: null,
    ...overrides,
  }) as EscrowStatus;

describe('escrow checks', () => {
  test('the balance covers the liabilities, or ✖ with the shortfall', () => {
    expect(
      checkEscrowCoversLiabilities(status({ balance: parseEther('2'), liabilities: parseEther('1.5') })),
    ).toEqual({
      ok: true,
      note: '2 BNB ≥ 1.5 BNB owed at block 7',
    });
    expect(
      checkEscrowCoversLiabilities(status({ balance: parseEther('1'), liabilities: parseEther('1') + 1n })),
    ).toEqual({
      ok: false,
      reason:
        '1 BNB is below the 1.000000000000000001 BNB owed at block 7 (short by 0.000000000000000001 BNB)',
    });
  });

  test('no operator key: ✖, the server could not act as the operator', () => {
    expect(checkEscrowOperator(status({}), undefined)).toMatchObject({
      ok: false,
      reason: 'OPERATOR_PRIVATE_KEY is not set: the server could not act as the operator',
    });
    expect(checkEscrowOperator(status({}), DEV_OPERATOR.privateKey)).toMatchObject({ ok: true });
  });
});

describe('the escrow deploy block check', () => {
  test('code at the block and none before it: ✔, reconciliation starts there', () => {
    expect(checkEscrowDeployBlock(42n, { codeAtBlock: true, codeBefore: false })).toEqual({
      ok: true,
      note: 'block 42: reconciliation starts there',
    });
    expect(checkEscrowDeployBlock(0n, { codeAtBlock: true, codeBefore: false })).toMatchObject({ ok: true });
  });

  test('no code at the block: ✖, a later block would skip deposits for good', () => {
    expect(checkEscrowDeployBlock(42n, { codeAtBlock: false, codeBefore: false })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no code at block 42: it was deployed later/),
    });
  });

  test('code before the block: ⚠, deposits before it are skipped', () => {
    expect(checkEscrowDeployBlock(42n, { codeAtBlock: true, codeBefore: true })).toMatchObject({
      ok: true,
      warning: true,
      note: expect.stringMatching(/has code before block 42/),
    });
  });

  test('a node without state that old: ⚠, not verified', () => {
    for (const reading of [
      { codeAtBlock: null, codeBefore: null },
      { codeAtBlock: true, codeBefore: null },
    ]) {
      expect(checkEscrowDeployBlock(42n, reading)).toMatchObject({ ok: true, warning: true });
    }
  });
});
