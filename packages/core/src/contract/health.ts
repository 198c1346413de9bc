import * as z from 'zod/mini';

export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  db: z.enum(['pglite', 'postgres']),
  chainId: z.int(),
  blockNumber: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
