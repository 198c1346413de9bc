import type { AppDeps } from '../app-deps.ts';
import type { PaymentContext } from './accept-payment.ts';

/**
 * How both games verify a payment (docs/architecture.md "Payment verification"): a deposit on this chain
 * into this escrow, with its confirmations and wait. One builder, so markets and oracle cannot drift apart.
 */
export function createPaymentContext({ config, database, chain, clock, metrics }: AppDeps): PaymentContext {
  return {
    db: database.db,
    ...(config.escrow.address
      ? {
          escrow: {
            client: chain,
            chainId: config.chain.id,
            escrowAddress: config.escrow.address,
            confirmations: config.chain.confirmations,
            waitMs: config.chain.paymentWaitMs,
          },
        }
      : {}),
    clock,
    metrics,
  };
}
