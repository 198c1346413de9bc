import { type ConfigResponse, ConfigResponseSchema } from '@pm/core/contract/config';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';

export type AppConfig = ConfigResponse;

/** GET /api/config: the deployment's chain, vault, minimum bets, fees and round timings. */
export function getAppConfig(options: { signal?: AbortSignal } = {}): Promise<AppConfig> {
  return apiGet('/api/config', ConfigResponseSchema, options);
}

/**
 * The deployment does not change while the page is open, so it is read once. Its `serverTime` is
 * the time of that one read: take the clock from the endpoint that needs it, not from here.
 */
export function appConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => getAppConfig({ signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The deployment's config. Inside the app routes it is always loaded already: `data` is defined. */
export function useAppConfig() {
  return useSuspenseQuery(appConfigQueryOptions());
}
