import { type ClaimBody, ClaimResponseSchema } from '@pm/core/contract/claims';
import type { UserBet } from '@pm/core/contract/users';
import { claimableAmountWei, isBetClaimable, myBetDisplayStatus } from '@pm/core/market-rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Inbox } from 'lucide';
import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { apiPost } from '../../../lib/api-client.ts';
import { showClaimToast } from '../../../lib/claim-toast.ts';
import { apiErrorMessage } from '../../../lib/error-message.ts';
import { useFormat } from '../../../lib/format.ts';
import { useRealtime } from '../../../lib/realtime.ts';
import { Badge } from '../../../ui/badge.tsx';
import { Button } from '../../../ui/button.tsx';
import { Card } from '../../../ui/card.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { Skeleton } from '../../../ui/skeleton.tsx';
import { StatusMessage } from '../../../ui/status-message.tsx';
import { toast } from '../../../ui/toast.ts';
import { useWallet } from '../../wallet/hooks/use-wallet.ts';
import { useUserBets } from '../api/get-user-bets.ts';

/** Spec §2 /my-bets: needs a wallet (else the spec's toast and /predictions); the user's bets. */
export function MyBetsList() {
  const { t, language } = useTranslation();
  const wallet = useWallet();
  const [, navigate] = useLocation();
  const bets = useUserBets(wallet.address);
  const queryClient = useQueryClient();
  useRealtime((message) => {
    if (message.topic === 'bets' || message.topic === 'markets' || message.topic === 'payouts') {
      void queryClient.invalidateQueries({ queryKey: ['my-bets'] });
    }
  });
  useEffect(() => {
    if (wallet.isConnected || wallet.isConnecting) return;
    toast.error(t('myBets.connectFirst'));
    navigate('/predictions', { replace: true });
  }, [wallet.isConnected, wallet.isConnecting, navigate, t]);
  const claim = useMutation({
    mutationFn: (body: ClaimBody) => apiPost('/api/claims', body, ClaimResponseSchema),
    onSuccess: (answer) => showClaimToast(answer, { t, language, failed: t('myBets.claimFailed') }),
    onError: (error) => toast.error(apiErrorMessage(t, error, t('myBets.claimFailed'))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['my-bets'] }),
  });

  if (!wallet.isConnected || !wallet.address) return null;
  const address = wallet.address;
  if (bets.isPending) return <Skeleton className="h-48 w-full" />;
  if (bets.isError) {
    return (
      <Card>
        <StatusMessage tone="error" icon={<Icon node={CircleAlert} />}>
          {t('myBets.loadFailed')}
        </StatusMessage>
      </Card>
    );
  }
  const list = bets.data.pages.flatMap((page) => page.bets);
  if (list.length === 0) {
    return (
      <Card>
        <StatusMessage
          icon={<Icon node={Inbox} />}
          action={
            <Link to="/predictions" className="font-semibold text-brand underline">
              {t('myBets.browse')}
            </Link>
          }
        >
          {t('myBets.empty')}
        </StatusMessage>
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col gap-3">
        {list.map((bet) => (
          <BetRow
            key={bet.id}
            bet={bet}
            claiming={claim.isPending}
            onClaim={() => claim.mutate({ userAddress: address, scope: 'markets', betId: bet.id })}
          />
        ))}
      </ul>
      {bets.hasNextPage && (
        <Button
          variant="outline"
          className="self-center"
          disabled={bets.isFetchingNextPage}
          onClick={() => void bets.fetchNextPage()}
        >
          {t('myBets.loadMore')}
        </Button>
      )}
    </div>
  );
}

function BetRow({ bet, claiming, onClaim }: { bet: UserBet; claiming: boolean; onClaim: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const amount = BigInt(bet.amountWei);
  const payout = bet.payoutWei === null ? null : BigInt(bet.payoutWei);
  const market = {
    status: bet.market.status,
    result: bet.market.result === 'VOID' ? null : bet.market.result,
  };
  const status =
    bet.market.status === 'settling' && bet.status === 'pending'
      ? 'settling'
      : myBetDisplayStatus({ status: bet.status, prediction: bet.prediction }, market);
  const claimable = isBetClaimable(
    { status: bet.status, prediction: bet.prediction, payoutWei: payout },
    market,
  );
  // Won: what it pays (stake + profit); otherwise the spec's record value (twice the stake).
  const win =
    bet.status === 'won' || bet.status === 'claimed'
      ? amount + (payout ?? 0n)
      : BigInt(bet.potentialPayoutWei);
  const tone = status === 'won' || status === 'claimed' ? 'yes' : status === 'lost' ? 'no' : 'neutral';
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <Badge>{t(`markets.categories.${bet.market.category}`)}</Badge>
          <Badge tone={tone}>{t(`myBets.status.${statusKey(status)}`)}</Badge>
        </div>
        <Link to={`/market/${bet.marketId}`} className="font-semibold hover:text-brand">
          {bet.market.title}
        </Link>
        <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-4">
          <div>
            <dt className="text-muted">{t('myBets.deadline')}</dt>
            <dd className="tabular-nums">{format.dateTime(bet.market.deadline)}</dd>
          </div>
          <div>
            <dt className="text-muted">{t('myBets.prediction')}</dt>
            <dd className={bet.prediction === 'YES' ? 'text-yes' : 'text-no'}>{bet.prediction}</dd>
          </div>
          <div>
            <dt className="text-muted">{t('myBets.amount')}</dt>
            <dd className="tabular-nums">{format.bnb(amount)}</dd>
          </div>
          <div>
            <dt className="text-muted">{t('myBets.potentialWin')}</dt>
            <dd className="tabular-nums">{format.bnb(win)}</dd>
          </div>
        </dl>
      </div>
      {claimable && (
        <div className="rounded-lg border border-brand/40 bg-brand/10 p-3 text-sm">
          <p className="mb-2">
            {t('myBets.claimPrizeHint', {
              amount: format.bnb(
                claimableAmountWei({ amountWei: amount, payoutWei: payout, status: bet.status }),
                { symbol: null },
              ),
            })}
          </p>
          <Button size="sm" disabled={claiming} onClick={onClaim}>
            {t('myBets.claimPrize')}
          </Button>
        </div>
      )}
    </li>
  );
}

function statusKey(
  status: string,
): 'claimed' | 'won' | 'lost' | 'active' | 'refunded' | 'pending' | 'settling' {
  const known = ['claimed', 'won', 'lost', 'active', 'refunded', 'pending', 'settling'] as const;
  return known.find((key) => key === status) ?? 'pending';
}
