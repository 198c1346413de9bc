import { MIN_MARKET_BET_WEI } from '@pm/core/constants';
import type { CreateCustomMarketBody } from '@pm/core/contract/markets';
import { AppError } from '../errors/app-error.ts';

// docs/product.md §5 rules the contract's schemas cannot say, with the spec's messages. The web checks the
// same before paying; the server checks again because nothing from the browser is trusted.

export function refuseCreateMarket(body: CreateCustomMarketBody): AppError | null {
  if (body.description.trim() === '')
    return new AppError('VALIDATION_FAILED', 'Please enter a bet description');
  return refuseAmount(BigInt(body.amountWei));
}

/** docs/product.md §5/§9: a market bet (creating or joining) is at least 0.005 BNB. */
export function refuseAmount(amountWei: bigint): AppError | null {
  return amountWei < MIN_MARKET_BET_WEI ? new AppError('AMOUNT_TOO_LOW') : null;
}
