import { describe, expect, test } from 'vitest';
import { orderConnectors } from './order-connectors.ts';

const generic = { id: 'injected', type: 'injected', name: 'Injected' };
const metaMask = { id: 'io.metamask', type: 'injected', name: 'MetaMask' };
const rabby = { id: 'io.rabby', type: 'injected', name: 'Rabby' };
const testWallet = { id: 'dev.pm.testwallet', type: 'injected', name: 'Test Wallet' };

describe('orderConnectors', () => {
  test('MetaMask comes first when several wallets announce themselves', () => {
    expect(orderConnectors([generic, rabby, metaMask, testWallet], true)).toEqual([
      metaMask,
      rabby,
      testWallet,
    ]);
  });

  test('Without MetaMask the first wallet found comes first', () => {
    expect(orderConnectors([generic, testWallet, rabby], true)).toEqual([testWallet, rabby]);
  });

  test('The generic injected wallet is offered only when nothing announced itself', () => {
    expect(orderConnectors([generic], true)).toEqual([generic]);
  });

  test('No wallet at all gives an empty list', () => {
    expect(orderConnectors([generic], false)).toEqual([]);
  });
});
