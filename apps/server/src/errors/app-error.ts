import { ERROR_MESSAGES, type ErrorCode } from '@pm/core/contract/errors';

const STATUS: Partial<Record<ErrorCode, number>> = {
  NOT_FOUND: 404,
  MARKET_NOT_FOUND: 404,
  ROUND_NOT_FOUND: 404,
  MARKET_CLOSED: 409,
  ESCROW_ID_TAKEN: 409,
  ROUND_NOT_LIVE: 409,
  ROUNDS_ALREADY_STARTED: 409,
  PRICE_UNAVAILABLE: 503,
  TX_ALREADY_USED: 409,
  TX_TOO_LATE: 409,
  UNAUTHORIZED: 401,
  NOT_IN_REVIEW: 409,
  REVIEW_CLOSED: 409,
  NOT_A_BETTOR: 403,
  ALREADY_FLAGGED: 409,
  RATE_LIMITED: 429,
  ANALYZE_RATE_LIMITED: 429,
  ANALYZE_DAILY_LIMIT: 429,
  ANALYZE_UNAVAILABLE: 503,
  CLAIMS_UNAVAILABLE: 503,
  CHAIN_UNAVAILABLE: 503,
  RESERVES_NOT_CHECKED: 503,
  ESCROW_NOT_CONFIGURED: 503,
  PAYOUT_FAILED: 502,
  INTERNAL: 500,
};

/** The one error vocabulary of the server; mapped to HTTP in the error handler only. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;

  constructor(
    code: ErrorCode,
    message: string = ERROR_MESSAGES[code],
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options);
    this.code = code;
    this.status = options?.status ?? STATUS[code] ?? 400;
  }
}
