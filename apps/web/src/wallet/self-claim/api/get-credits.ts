import { queryOptions } from '@tanstack/react-query';
import type { Address } from 'viem';
import type { Config } from 'wagmi';
import { type EscrowTarget, readCredits } from '../escrow/escrow-reads.ts';
import { escrowQueryKey } from './escrow-query-key.ts';

/** Credits change only when a push fails: read again this often, and after each of our own calls. */
const CREDITS_REFRESH_MS = 60_000;

/** The wallet's credits on the escrow: payouts whose push failed, waiting for `withdraw`. */
export function creditsQueryOptions(config: Config, escrow: EscrowTarget, owner: Address) {
  return queryOptions({
    queryKey: [...escrowQueryKey(escrow.address), 'credits', owner.toLowerCase()],
    queryFn: () => readCredits(config, escrow, owner),
    refetchInterval: CREDITS_REFRESH_MS,
  });
}
