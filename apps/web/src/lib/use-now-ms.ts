import { useQuery } from '@tanstack/react-query';
import { appConfigQueryOptions } from '#api/get-app-config.ts';
import { useServerNow } from '#lib/use-server-now.ts';

/** Server time in ms, ticking (docs/architecture.md: server time decides deadlines, never the browser's clock). */
export function useNowMs(): number {
  const config = useQuery(appConfigQueryOptions());
  return useServerNow(config.data?.serverTime, config.dataUpdatedAt) * 1000;
}
