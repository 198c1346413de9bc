import { hashTypedData, recoverTypedDataAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import {
  OperatorActionBodySchema,
  operatorTypedData,
  ResolveMarketBodySchema,
  VoidMarketBodySchema,
} from './operator.ts';

const account = privateKeyToAccount(`0x${'11'.repeat(32)}`);
const signature = `0x${'ab'.repeat(65)}`;
const action = { address: account.address, nonce: 'n'.repeat(16), expiry: 1_800_000_000, signature };

describe('operatorTypedData', () => {
  const base = { action: 'oracle.reset', chainId: 56, nonce: 'n'.repeat(32), expiry: 1_800_000_000 } as const;

  test('names the app, its version and the chain in the domain', () => {
    expect(operatorTypedData(base).domain).toEqual({ name: 'BNB Predict', version: '1', chainId: 56 });
  });

  test('every signed field changes the digest: chain, action, market, result, reason, nonce and expiry', () => {
    const digest = hashTypedData(operatorTypedData(base));
    const variants = [
      { ...base, chainId: 97 },
      { ...base, action: 'oracle.genesis' as const },
      { ...base, marketId: 1 },
      { ...base, result: 'VOID' as const },
      { ...base, reason: 'why' },
      { ...base, nonce: 'm'.repeat(32) },
      { ...base, expiry: base.expiry + 1 },
    ];
    for (const variant of variants) expect(hashTypedData(operatorTypedData(variant))).not.toBe(digest);
  });

  test('a wallet signature of the typed data recovers the signer', async () => {
    const typed = operatorTypedData({
      ...base,
      action: 'market.resolve',
      marketId: 7,
      result: 'YES',
      reason: 'r',
    });
    const signed = await account.signTypedData(typed);
    expect(await recoverTypedDataAddress({ ...typed, signature: signed })).toBe(account.address);
  });
});

describe('operator action bodies', () => {
  test('accept a 16 to 128 character nonce', () => {
    expect(OperatorActionBodySchema.safeParse(action).success).toBe(true);
    expect(OperatorActionBodySchema.safeParse({ ...action, nonce: 'n'.repeat(128) }).success).toBe(true);
    for (const nonce of ['n'.repeat(15), 'n'.repeat(129)]) {
      expect(OperatorActionBodySchema.safeParse({ ...action, nonce }).success).toBe(false);
    }
  });

  test('refuse a signature that is not 65 bytes of hex, with their own message', () => {
    for (const bad of ['abcdef', '0xabcdef']) {
      const issue = OperatorActionBodySchema.safeParse({ ...action, signature: bad }).error?.issues[0];
      expect(issue).toMatchObject({
        path: ['signature'],
        message: 'must be a 0x-prefixed 65-byte hex signature',
      });
    }
  });

  test('need the expiry that was signed', () => {
    const { expiry: _, ...withoutExpiry } = action;
    expect(OperatorActionBodySchema.safeParse(withoutExpiry).success).toBe(false);
  });

  test('market actions need a reason that is not blank, kept exactly as signed', () => {
    expect(ResolveMarketBodySchema.parse({ ...action, result: 'YES', reason: ' It happened. ' }).reason).toBe(
      ' It happened. ',
    );
    expect(ResolveMarketBodySchema.safeParse({ ...action, result: 'VOID', reason: 'x' }).success).toBe(false);
    expect(VoidMarketBodySchema.safeParse({ ...action, reason: '   ' }).success).toBe(false);
    expect(VoidMarketBodySchema.safeParse({ ...action, reason: 'x'.repeat(2001) }).success).toBe(false);
  });
});
