import { z } from 'zod';
import { AddressSchema, IsoTimeSchema, WeiSchema } from './primitives.ts';

/** What the web needs to know about this deployment; one build serves any chain. */
export const ConfigResponseSchema = z.object({
  chainId: z.number().int(),
  chainName: z.string(),
  rpcUrl: z.string(),
  explorerUrl: z.string().nullable(),
  vaultAddress: AddressSchema,
  minMarketBetWei: WeiSchema,
  minOracleBetWei: WeiSchema,
  marketFeeBps: z.number().int(),
  oracleFeeBps: z.number().int(),
  roundIntervalS: z.number().int(),
  bettingWindowS: z.number().int(),
  priceFeed: z.enum(['chainlink', 'ticker', 'simulated']),
  aiConfigured: z.boolean(),
  claimsEnabled: z.boolean(),
  operatorAddresses: z.array(AddressSchema),
  serverTime: IsoTimeSchema,
});
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>;
