import { REFRESH_MS } from '@pm/core/constants';
import { type SolvencyResponse, SolvencyResponseSchema } from '@pm/core/contract/solvency';
import { useEffect, useState } from 'react';
import { ApiError, apiGet } from '#lib/api-client.ts';

/** How soon the card asks again when the server has not checked the reserves yet (just started). */
const NOT_CHECKED_RETRY_MS = 2_000;

/**
 * GET /api/solvency: the vault's balance at a block against what it owes (docs/architecture.md
 * "Proof of reserves").
 */
export function getSolvency(options: { signal?: AbortSignal } = {}): Promise<SolvencyResponse> {
  return apiGet('/api/solvency', SolvencyResponseSchema, options);
}

export type SolvencyState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; data: SolvencyResponse };

/**
 * The reserves for the landing page, refreshed every 30 s. A plain effect, not a TanStack query:
 * the landing loads no query client (decision 006). A failed refresh keeps the last figures.
 */
export function useSolvency(): { state: SolvencyState; retry: () => void } {
  const [state, setState] = useState<SolvencyState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each retry is a new attempt.
  useEffect(() => {
    const controller = new AbortController();
    let soon: ReturnType<typeof setTimeout> | undefined;
    const load = (): Promise<void> =>
      getSolvency({ signal: controller.signal }).then(
        (data) => setState({ status: 'ready', data }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          // 503 RESERVES_NOT_CHECKED: the server serves its reserves job's last reading and has
          // none yet (it has just started). Still "checking", and asked again shortly.
          const notYet = error instanceof ApiError && error.code === 'RESERVES_NOT_CHECKED';
          if (notYet) soon = setTimeout(() => void load(), NOT_CHECKED_RETRY_MS);
          setState((previous) =>
            previous.status === 'ready' ? previous : notYet ? { status: 'loading' } : { status: 'error' },
          );
        },
      );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS.reserves);
    return () => {
      clearInterval(timer);
      clearTimeout(soon);
      controller.abort();
    };
  }, [attempt]);
  return {
    state,
    retry: () => {
      setState({ status: 'loading' });
      setAttempt((n) => n + 1);
    },
  };
}
