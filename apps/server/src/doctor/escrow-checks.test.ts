import type { EscrowStatus } from '@pm/escrow/deploy';
import { marketEscrowRuntimeCodeHash } from '@pm/escrow/deploy-market-escrow';
import { type Address, getAddress, parseEther, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { DEV_OPERATOR } from '../config/dev-accounts.ts';
import {
  checkEscrowCoversLiabilities,
  checkEscrowDeployBlock,
  checkEscrowOperator,
  checkMarketEscrowCode,
  checkMarketEscrowFeeds,
  checkMarketEscrowFees,
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

describe('the MarketEscrow checks', () => {
  const feed = (n: number) => getAddress(toHex(n, { size: 20 })) as Address;
  const configured = Array.from({ length: 8 }, (_, coin) => feed(coin + 1));

  test("its code is this build's, or ✖ with both hashes", () => {
    expect(checkMarketEscrowCode({ blockNumber: 7n, codeHash: marketEscrowRuntimeCodeHash() })).toEqual({
      ok: true,
      note: 'at block 7',
    });
    expect(checkMarketEscrowCode({ blockNumber: 7n, codeHash: `0x${'00'.repeat(32)}` })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/is not this build's MarketEscrow/),
    });
  });

  test('the deploy block check names MarketEscrow and its setting', () => {
    expect(
      checkEscrowDeployBlock(
        42n,
        { codeAtBlock: false, codeBefore: false },
        { contract: 'MarketEscrow', setting: 'MARKET_ESCROW_DEPLOY_BLOCK' },
      ),
    ).toEqual({
      ok: false,
      reason:
        'MarketEscrow has no code at block 42: it was deployed later, so MARKET_ESCROW_DEPLOY_BLOCK is wrong',
    });
  });

  test('fees and price age equal to the settings: ✔; each one apart named', () => {
    const fees = { roundFeeBps: 100, priceMarketFeeBps: 200, maxPriceAge: 120 };
    expect(checkMarketEscrowFees(fees, fees)).toEqual({
      ok: true,
      note: 'rounds 100 bps, price markets 200 bps, prices at most 120 s old',
    });
    expect(checkMarketEscrowFees(fees, { ...fees, priceMarketFeeBps: 0 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^its priceMarketFeeBps is 200, MARKET_FEE_BPS is 0: it is fixed for good/,
      ),
    });
  });

  test('each coin on its configured feed: ✔; a swapped feed or another coin count: ✖', () => {
    expect(
      checkMarketEscrowFeeds(
        configured,
        configured.map((each) => each.toLowerCase() as Address),
      ),
    ).toEqual({
      ok: true,
      note: 'all 8 coins',
    });
    const swapped = [
      configured[2],
      ...configured.slice(1, 2),
      configured[0],
      ...configured.slice(3),
    ] as Address[];
    expect(checkMarketEscrowFeeds(swapped, configured)).toEqual({
      ok: false,
      reason: `BTC (coin 0) reads ${feed(3)}, the settings name ${feed(1)}; BNB (coin 2) reads ${feed(1)}, the settings name ${feed(3)}: its feeds are fixed for good`,
    });
    expect(checkMarketEscrowFeeds(configured.slice(0, 7), configured)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^it has 7 coins; the server has 8/),
    });
  });
});
