import * as z from 'zod/mini';
import { SignedWeiSchema, WeiSchema } from './primitives.ts';

// The wire fields of what a bet returns and made (docs/api.md "Money words"; computed by core's bet-return.ts), the
// same in every schema that carries a bet: market bets, round bets, history entries. Their
// descriptions in the OpenAPI document are in openapi-descriptions.ts.

export const betReturnShape = {
  returnWei: z.nullable(WeiSchema),
  profitWei: z.nullable(SignedWeiSchema),
};
