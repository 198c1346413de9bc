import type { HistoryEntry } from '@pm/core/contract/history';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useRealtime } from '#lib/realtime.ts';
import { type HistoryFilters, historyQueryKey } from '../api/get-history.ts';
import { HistoryFiltersBar } from './history-filters.tsx';
import { HistoryList } from './history-list.tsx';
import { PnlSummary } from './pnl-summary.tsx';

/**
 * The P&L card, the filters and the history list of one wallet: My Bets and /u/{address} alike.
 * Its strings are the `history` namespace: the profile route loads it, My Bets' lazy part waits
 * for it (decision 006).
 */
export function HistoryPanel({
  address,
  empty,
  onClaim,
  claiming,
}: {
  address: string;
  empty: ReactNode;
  onClaim?: (entry: HistoryEntry) => void;
  claiming?: boolean;
}) {
  const [filters, setFilters] = useState<HistoryFilters>({ game: 'all', status: 'all' });
  const queryClient = useQueryClient();
  useRealtime((message) => {
    if (
      message.topic === 'bets' ||
      message.topic === 'markets' ||
      message.topic === 'payouts' ||
      message.topic === 'rounds'
    ) {
      void queryClient.invalidateQueries({ queryKey: historyQueryKey(address) });
    }
  });
  return (
    <>
      <PnlSummary address={address} />
      <HistoryFiltersBar value={filters} onChange={setFilters} />
      <HistoryList address={address} filters={filters} empty={empty} onClaim={onClaim} claiming={claiming} />
    </>
  );
}
