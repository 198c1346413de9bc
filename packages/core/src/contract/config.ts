import * as z from 'zod/mini';
import { ResolutionSettingsSchema } from './evidence.ts';
import { AddressSchema, IsoTimeSchema, WeiSchema } from './primitives.ts';

/** What the web needs to know about this deployment; one build serves any chain. */
export const ConfigResponseSchema = z.object({
  chainId: z.int(),
  chainName: z.string(),
  rpcUrl: z.string(),
  explorerUrl: z.nullable(z.string()),
  vaultAddress: AddressSchema,
  minMarketBetWei: WeiSchema,
  minOracleBetWei: WeiSchema,
  marketFeeBps: z.int(),
  oracleFeeBps: z.int(),
  /** Issue 22: a flag's bond is max(flagBondMinWei, flagBondBps × the market's pool / 10000). */
  flagBondMinWei: WeiSchema,
  flagBondBps: z.int(),
  roundIntervalS: z.int(),
  bettingWindowS: z.int(),
  priceFeed: z.enum(['chainlink', 'ticker', 'simulated']),
  aiConfigured: z.boolean(),
  /** What judges custom markets and how (issue 18): shown in "How resolution works". */
  resolution: ResolutionSettingsSchema,
  claimsEnabled: z.boolean(),
  operatorAddresses: z.array(AddressSchema),
  serverTime: IsoTimeSchema,
});
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>;
