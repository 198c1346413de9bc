import { z } from 'zod';

export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  db: z.enum(['pglite', 'postgres']),
  chainId: z.number().int(),
  blockNumber: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
