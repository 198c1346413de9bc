import type { PayoutListWire } from '@pm/core/contract/payout-lists';
import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { defineRoute } from '../../http/define-route.ts';
import { findPayoutListByKey } from './payout-lists-repository.ts';

/**
 * GET /api/payout-lists/:key (docs/api.md "Payout lists"): a market's published payout list, from the
 * moment its settlement is queued (before payouts open) until forever, the same document the file
 * download holds. 404 before publication, while a failed settlement waits to be built again, and for
 * a market refunded in full (no list: every stake refunds).
 */
export function registerPayoutListRoutes(app: FastifyInstance, db: DbOrTx): void {
  defineRoute(app, ROUTES.payoutList, async ({ params, query }) => {
    const row = await findPayoutListByKey(db, params.key);
    if (!row || row.status === 'due') {
      throw new AppError('NOT_FOUND', `No payout list is published for market ${params.key.toLowerCase()}.`);
    }
    if (row.refund || row.document === null) {
      throw new AppError(
        'NOT_FOUND',
        `Market ${row.marketKey} is refunded in full: it has no payout list, every stake is refunded (refund on the escrow contract).`,
      );
    }
    const body = row.document as PayoutListWire;
    return {
      status: 200,
      body,
      ...(query.download === '1'
        ? {
            headers: {
              'content-disposition': `attachment; filename="payout-list-${row.marketKey}.json"`,
            },
          }
        : {}),
    };
  });
}
