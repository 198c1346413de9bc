import { expect, test } from 'vitest';
import { accountKind } from './account-kind.ts';

test('an address without code is a plain key', () => {
  expect(accountKind(undefined)).toBe('key');
  expect(accountKind('0x')).toBe('key');
});

test('EIP-7702 delegated code is still a key that can pay directly', () => {
  expect(accountKind(`0xef0100${'ab'.repeat(20)}`)).toBe('delegated-key');
  expect(accountKind(`0xEF0100${'AB'.repeat(20)}`)).toBe('delegated-key');
});

test('any other code is a contract wallet, whose payments are not credited', () => {
  expect(accountKind('0x608060405234801561001057600080fd5b50')).toBe('contract');
  // A delegation prefix with the wrong length is not a delegation.
  expect(accountKind(`0xef0100${'ab'.repeat(19)}`)).toBe('contract');
});
