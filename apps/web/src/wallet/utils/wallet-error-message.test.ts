import { ChainMismatchError, defineChain, UserRejectedRequestError } from 'viem';
import { describe, expect, test } from 'vitest';
import { walletErrorMessage } from './wallet-error-message.ts';

describe('walletErrorMessage', () => {
  test('A rejected request shows the message the wallet gave', () => {
    const fromWallet = Object.assign(new Error('MetaMask Tx Signature: User denied transaction signature.'), {
      code: 4001,
    });
    expect(walletErrorMessage(new UserRejectedRequestError(fromWallet))).toBe(
      'MetaMask Tx Signature: User denied transaction signature.',
    );
  });

  test('A viem error that is not from the wallet shows its short message, without the docs footer', () => {
    const chain = defineChain({
      id: 31337,
      name: 'Local',
      nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
      rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
    });
    const message = walletErrorMessage(new ChainMismatchError({ chain, currentChainId: 1 }));
    expect(message).toContain('does not match the target chain');
    expect(message).not.toContain('Version:');
  });

  test("The wallet's words are found however deep wagmi wraps them", () => {
    const fromWallet = Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const wrapped = new Error('Connection failed', { cause: new UserRejectedRequestError(fromWallet) });
    expect(walletErrorMessage(wrapped)).toBe('User rejected the request.');
  });

  test('A plain error shows its message and anything else shows nothing', () => {
    expect(walletErrorMessage(new Error('boom'))).toBe('boom');
    expect(walletErrorMessage('boom')).toBeUndefined();
  });
});
