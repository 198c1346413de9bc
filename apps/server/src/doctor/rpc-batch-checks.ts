import { z } from 'zod';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// The server sends its RPC calls in JSON-RPC batches of up to RPC_BATCH_SIZE; a provider
// that refuses batches, or caps them lower, would fail every payment check in production while
// single calls (what the other checks send) work (security review 2, lows).

const BatchAnswerSchema = z.array(
  z.object({
    id: z.union([z.number(), z.string(), z.null()]),
    result: z.unknown().optional(),
    error: z.object({ message: z.string() }).partial().optional(),
  }),
);

const HINT = 'set RPC_BATCH_SIZE to what the provider accepts, or 1 to send no batches';

/** Sends one batch of `batchSize` `eth_chainId` calls to `rpcUrl`; every call must be answered. */
export async function checkRpcBatch(
  rpcUrl: string,
  batchSize: number,
  timeoutMs: number,
): Promise<CheckOutcome> {
  if (batchSize === 1) return passed('RPC_BATCH_SIZE is 1: calls go one at a time');
  const calls = Array.from({ length: batchSize }, (_, index) => ({
    jsonrpc: '2.0',
    id: index + 1,
    method: 'eth_chainId',
    params: [],
  }));
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls),
    redirect: 'error',
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel();
    return failed(`HTTP ${response.status} to a batch of ${batchSize} calls: ${HINT}`);
  }
  const parsed = BatchAnswerSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return failed(`a batch of ${batchSize} calls was not answered with a list: ${HINT}`);
  const answered = new Set(parsed.data.filter((answer) => answer.result !== undefined).map((a) => a.id));
  const missing = calls.filter((call) => !answered.has(call.id)).length;
  if (missing > 0) {
    const reason = parsed.data.find((answer) => answer.error?.message)?.error?.message;
    return failed(
      `${missing} of ${batchSize} calls in one batch were not answered${reason ? ` ("${reason}")` : ''}: ${HINT}`,
    );
  }
  return passed(`a batch of ${batchSize} calls was answered`);
}
