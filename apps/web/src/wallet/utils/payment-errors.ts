import type { Hex } from 'viem';

export class WalletNotConnectedError extends Error {
  override readonly name = 'WalletNotConnectedError';
  readonly code = 'WALLET_NOT_CONNECTED';
  constructor() {
    super('Wallet not connected');
  }
}

export class PaymentRevertedError extends Error {
  override readonly name = 'PaymentRevertedError';
  readonly code = 'PAYMENT_REVERTED';
  readonly hash: Hex;
  constructor(hash: Hex) {
    super(`The payment transaction ${hash} reverted`);
    this.hash = hash;
  }
}
