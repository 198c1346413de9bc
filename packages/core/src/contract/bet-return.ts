import * as z from 'zod/mini';
import { SignedWeiSchema, WeiSchema } from './primitives.ts';

// The wire fields of what a bet returns and made (issue 28; computed by core's bet-return.ts), the
// same in every schema that carries a bet: market bets, round bets, history entries. The
// descriptions are the OpenAPI document's.

export const betReturnShape = {
  returnWei: z.nullable(WeiSchema).check(
    z.meta({
      description:
        'What the bet pays back, stake included: stake + winnings on a win, the stake on a refund, ' +
        '"0" on a loss; null until settled.',
    }),
  ),
  profitWei: z.nullable(SignedWeiSchema).check(
    z.meta({
      description:
        'returnWei − the stake, a signed decimal string: −stake on a loss, "0" on a refund, the winnings ' +
        'on a win (below 0 only for a round whose fee outweighs its losing pool); null until settled.',
    }),
  ),
};

/**
 * A field kept one release for clients that read it (docs/api.md "Money words"), marked deprecated
 * in the OpenAPI document. The server still sends it; it is optional so our own code cannot read it.
 */
export function deprecatedWei<T extends z.ZodMiniType>(schema: T, description: string) {
  return z.optional(schema.check(z.meta({ description: `Deprecated: ${description}`, deprecated: true })));
}
