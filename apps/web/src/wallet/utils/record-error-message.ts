import type { TFunction } from '#i18n/translate.ts';
import { ApiError } from '#lib/api-client.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { isFinalRefusal } from '#lib/is-final-refusal.ts';

/**
 * What to tell the user when recording a paid bet fails (docs/product.md §8 'Failed to create market' /
 * 'Failed to place bet', or the server's message). A refusal is final — the server keeps the money
 * as a refund — so the dialog closes; a network or server error can be retried with the same hash.
 */
export function recordErrorMessage(
  t: TFunction,
  error: unknown,
  fallback: string,
): { message: string; close: boolean } {
  if (error instanceof ApiError && error.code === 'MARKET_CLOSED') {
    return { message: t('marketActions.join.closedRefund'), close: true };
  }
  return { message: apiErrorMessage(t, error, fallback), close: isFinalRefusal(error) };
}
