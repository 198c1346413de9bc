import { queryOptions } from '@tanstack/react-query';
import type { Config } from 'wagmi';
import { type EscrowTarget, readOpenStakes } from '../escrow/escrow-reads.ts';
import { escrowQueryKey } from './escrow-query-key.ts';

/** An offered stake may be paid meanwhile (the relay lands late): its state is read again this often. */
const OPEN_STAKES_REFRESH_MS = 15_000;

/** Which of the offered stakes are still open on the escrow (read from the chain, not the server). */
export function openStakesQueryOptions(config: Config, escrow: EscrowTarget, stakeIds: readonly string[]) {
  return queryOptions({
    queryKey: [...escrowQueryKey(escrow.address), 'open-stakes', stakeIds],
    queryFn: () => readOpenStakes(config, escrow, stakeIds),
    enabled: stakeIds.length > 0,
    refetchInterval: OPEN_STAKES_REFRESH_MS,
  });
}
