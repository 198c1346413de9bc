import { ApiError } from './api-client.ts';

/**
 * A refusal of a paid bet is final: the server keeps the money as a refund owed, so the stored copy
 * is forgotten and the dialog closes. A network error, a 5xx or a 429 is not: the same hash can be
 * posted again.
 */
export function isFinalRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status >= 400 && error.status < 500 && error.code !== 'RATE_LIMITED'
  );
}
