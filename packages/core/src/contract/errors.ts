import * as z from 'zod/mini';

/**
 * Every error code the API answers with (docs/api.md). The web keys its translated
 * messages by these codes; the server's English `message` is the spec's text where it has one.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'MARKET_NOT_FOUND',
  'MARKET_CLOSED',
  'ESCROW_ID_TAKEN',
  'CLOSE_OUT_OF_RANGE',
  'ROUND_NOT_FOUND',
  'ROUND_NOT_LIVE',
  'ROUNDS_ALREADY_STARTED',
  'PRICE_UNAVAILABLE',
  'AMOUNT_TOO_LOW',
  'TX_NOT_FOUND',
  'TX_FAILED',
  'WRONG_RECIPIENT',
  'WRONG_SENDER',
  'WRONG_AMOUNT',
  'WRONG_CHAIN',
  'INTENT_MISMATCH',
  'TX_ALREADY_USED',
  'TX_TOO_LATE',
  'CLAIMS_UNAVAILABLE',
  'PAYOUT_FAILED',
  'UNAUTHORIZED',
  'NOT_IN_REVIEW',
  'REVIEW_CLOSED',
  'NOT_A_BETTOR',
  'ALREADY_FLAGGED',
  'RATE_LIMITED',
  'ANALYZE_RATE_LIMITED',
  'ANALYZE_DAILY_LIMIT',
  'ANALYZE_UNAVAILABLE',
  'CHAIN_UNAVAILABLE',
  'RESERVES_NOT_CHECKED',
  'ESCROW_NOT_CONFIGURED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** English messages; docs/product.md §5/§8 text where the spec has one. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'The request could not be read.',
  VALIDATION_FAILED: 'Some fields are missing or invalid.',
  NOT_FOUND: 'Not found.',
  MARKET_NOT_FOUND: 'Market not found',
  MARKET_CLOSED: 'This market has closed and is no longer accepting bets',
  ESCROW_ID_TAKEN: 'Another market already has this escrow id; pick a fresh one.',
  CLOSE_OUT_OF_RANGE: "The deposit's close is not the market's duration from its block; it will be refunded.",
  ROUND_NOT_FOUND: 'Round not found.',
  ROUND_NOT_LIVE: 'You can only bet on live rounds',
  ROUNDS_ALREADY_STARTED: 'Rounds are already running.',
  PRICE_UNAVAILABLE: 'The price is unavailable right now.',
  AMOUNT_TOO_LOW: 'Minimum amount is 0.005 BNB',
  TX_NOT_FOUND: 'The payment transaction was not found on chain.',
  TX_FAILED: 'The payment transaction failed on chain.',
  WRONG_RECIPIENT: 'The payment is not a deposit into the escrow contract.',
  WRONG_SENDER: 'The payment was sent from a different address.',
  WRONG_AMOUNT: 'The payment amount does not match the bet.',
  WRONG_CHAIN: 'The payment was made on another chain.',
  INTENT_MISMATCH: 'The payment was made for a different bet.',
  TX_ALREADY_USED: 'This payment has already been used.',
  TX_TOO_LATE: 'The payment was confirmed after betting closed; it will be refunded.',
  CLAIMS_UNAVAILABLE:
    'Claims are unavailable: no operator key is configured on this server. Claim with your wallet from the published payout list.',
  PAYOUT_FAILED: 'Failed to claim winnings',
  UNAUTHORIZED: 'Not allowed.',
  NOT_IN_REVIEW: 'This market has no verdict under review.',
  REVIEW_CLOSED: 'The review window of this verdict has ended.',
  NOT_A_BETTOR: 'Only an address that bet on this market can flag its verdict.',
  ALREADY_FLAGGED: 'This address has already flagged this verdict.',
  RATE_LIMITED: 'Too many requests. Please wait a moment and try again.',
  ANALYZE_RATE_LIMITED: 'You can analyze 5 questions a minute. Please wait a minute and try again.',
  ANALYZE_DAILY_LIMIT:
    'The judge has answered as many questions as this server allows today. Try again tomorrow, or publish without an analysis.',
  ANALYZE_UNAVAILABLE: 'The judge could not analyze the question right now. Please try again later.',
  CHAIN_UNAVAILABLE: 'The chain could not be reached. Please try again.',
  RESERVES_NOT_CHECKED: "The vault's reserves have not been checked yet. Please try again in a few seconds.",
  ESCROW_NOT_CONFIGURED: 'No escrow contract is configured on this server.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
};
