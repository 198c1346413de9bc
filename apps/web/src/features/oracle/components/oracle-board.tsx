import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { useAppConfig } from '#api/get-app-config.ts';
import { usePrice } from '#api/get-price.ts';
import { useIsOperator } from '#api/use-is-operator.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { useServerNow } from '#lib/use-server-now.ts';
import { Card } from '#ui/card.tsx';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { ROUNDS_QUERY_KEY, useRounds } from '../api/get-rounds.ts';
import { mayHavePendingOracleBets } from '../api/pending-oracle-bets-key.ts';
import { useConcludedRound } from '../hooks/use-concluded-round.ts';
import { useOracleRealtime } from '../hooks/use-oracle-realtime.ts';
import { BetPanel } from './bet-panel.tsx';
import { LeaderboardLinkCard } from './leaderboard-link-card.tsx';
import { LiveNotice } from './live-notice.tsx';

import { PriceCard } from './price-card.tsx';
import { RoundCard } from './round-card.tsx';
import { WaitingState } from './waiting-state.tsx';

// Shown to some (connected wallets, operators) or rarely (a round just concluded): their code
// loads when they show.
const OperatorControls = lazyWithPreload(() =>
  import('./operator-controls.tsx').then((module) => module.OperatorControls),
);
const ClaimableCard = lazyWithPreload(() =>
  import('./claimable-card.tsx').then((module) => module.ClaimableCard),
);
const ConcludedRoundModal = lazyWithPreload(() =>
  import('./concluded-round-modal.tsx').then((module) => module.ConcludedRoundModal),
);

/**
 * docs/product.md §2 /oracle-predictions: live-mode notice, the current round (LIVE) with the bet panel, the
 * NEXT and LAST rounds, the BNB/USD price, claimable winnings, the leaderboard card, operator
 * controls for operators, and the concluded-round modal. Rounds refresh every second and on
 * realtime pushes; countdowns run on the server's clock.
 */
export function OracleBoard() {
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  const wallet = useWallet();
  const isOperator = useIsOperator(wallet.address);
  const rounds = useRounds();
  const price = usePrice();
  const nowS = useServerNow(rounds.data?.serverTime, rounds.dataUpdatedAt);
  const concluded = useConcludedRound(rounds.data ? rounds.data.previous : undefined);
  useOracleRealtime();
  const queryClient = useQueryClient();
  useEffect(() => {
    // Bets paid but not recorded before the tab closed or the connection dropped; the
    // retry code loads only when one waits.
    if (!mayHavePendingOracleBets()) return;
    void import('../api/pending-oracle-bets.ts')
      .then((pending) => pending.retryPendingOracleBets())
      .then((recorded) => {
        if (recorded > 0) void queryClient.invalidateQueries({ queryKey: ROUNDS_QUERY_KEY });
      });
  }, [queryClient]);

  const data = rounds.data;
  const current = data?.current ?? null;
  const started = data?.started ?? true;

  return (
    <div className="flex flex-col gap-6">
      <p className="-mt-4 text-muted">{t('oracle.subtitle')}</p>
      <LiveNotice />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
          {rounds.isPending ? (
            <Card aria-busy="true" className="flex flex-col gap-4 p-5">
              <span className="sr-only">{t('oracle.loading')}</span>
              <Skeleton className="h-6 w-40" />
              <Skeleton className="h-32 w-full" />
            </Card>
          ) : rounds.isError && !data ? (
            <LoadFailed query={rounds}>{apiErrorMessage(t, rounds.error, t('oracle.loadFailed'))}</LoadFailed>
          ) : current ? (
            <RoundCard variant="current" round={current} nowS={nowS} lastPriceUsd={price.data?.usd ?? null}>
              <BetPanel round={current} nowS={nowS} />
            </RoundCard>
          ) : (
            <WaitingState started={started} intervalS={config.roundIntervalS} />
          )}
          {data && (data.next || data.previous) && (
            <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
              {data.next && <RoundCard variant="next" round={data.next} nowS={nowS} />}
              {data.previous && <RoundCard variant="previous" round={data.previous} nowS={nowS} />}
            </div>
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <PriceCard currentRound={current} />
          {wallet.address && (
            <Suspense fallback={null}>
              <ClaimableCard address={wallet.address} />
            </Suspense>
          )}
          <LeaderboardLinkCard />
          {wallet.address && isOperator && (
            <Suspense fallback={null}>
              <OperatorControls address={wallet.address} started={started} />
            </Suspense>
          )}
        </div>
      </div>
      {concluded.announced && (
        <Suspense fallback={null}>
          <ConcludedRoundModal round={concluded.announced} onClose={concluded.dismiss} />
        </Suspense>
      )}
    </div>
  );
}
