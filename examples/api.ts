import type { Address } from 'viem';

// The few API calls the examples make, over plain fetch: what a bot in any language does.

export type EscrowConfig = { address: Address; chainId: number };

export async function getJson(apiUrl: string, path: string): Promise<unknown> {
  const response = await fetch(`${apiUrl}${path}`);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

/** The escrow contract every stake is deposited into (GET /api/config's `escrow`). */
export async function readEscrow(apiUrl: string): Promise<EscrowConfig> {
  const config = (await getJson(apiUrl, '/api/config')) as { escrow?: EscrowConfig | null };
  if (!config.escrow)
    throw new Error('This server has no escrow contract configured (ESCROW_NOT_CONFIGURED).');
  return config.escrow;
}

/**
 * POSTs a paid request and waits while the API answers 202 (the deposit is valid but not final yet),
 * as the web app does; returns the recorded answer (201/200) or throws the API's error.
 */
export async function postPaid(
  apiUrl: string,
  path: string,
  body: Record<string, unknown>,
  options: { timeoutMs?: number; everyMs?: number; onPending?: () => void } = {},
): Promise<unknown> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const response = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => null);
    if (response.status === 202 && Date.now() < deadline) {
      options.onPending?.();
      await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 2_000));
      continue;
    }
    if (!response.ok || response.status === 202) throw new ApiError(response.status, answer);
    return answer;
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    super(
      `The API answered ${status}${error ? `: ${error.code ?? ''} ${error.message ?? ''}`.trimEnd() : ''}`,
    );
  }
}
