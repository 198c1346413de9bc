import { REFRESH_MS } from '@pm/core/constants';
import { type SolvencyResponse, SolvencyResponseSchema } from '@pm/core/contract/solvency';
import { useEffect, useState } from 'react';
import { apiGet } from '#lib/api-client.ts';

/** GET /api/solvency: the vault's balance at a block against what it owes (issue 20). */
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
    const load = () =>
      getSolvency({ signal: controller.signal }).then(
        (data) => setState({ status: 'ready', data }),
        () => {
          if (controller.signal.aborted) return;
          setState((previous) => (previous.status === 'ready' ? previous : { status: 'error' }));
        },
      );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS.reserves);
    return () => {
      clearInterval(timer);
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
