import { Coins } from 'lucide';
import { useClaimWinnings } from '#api/claim-winnings.ts';
import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { useClaimable } from '#api/get-claimable.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { showClaimToast } from '#lib/claim-toast.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { toast } from '#ui/toast.ts';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { MARKETS_QUERY_KEY } from '../api/get-markets.ts';

/** docs/product.md §2 Claimable Winnings (connected wallets only): total, Claim, the spec's toasts. */
export function ClaimablePanel({ betId }: { betId?: number }) {
  useNamespace('marketActions');
  const { t, language } = useTranslation();
  const wallet = useWallet();
  const claimable = useClaimable(wallet.address, 'markets');
  const format = useFormat();
  const claim = useClaimWinnings([CLAIMABLE_QUERY_KEY, MARKETS_QUERY_KEY], {
    onSuccess: (answer) =>
      showClaimToast(answer, { t, language, failed: t('marketActions.claimable.failed') }),
    onError: (error) => toast.error(apiErrorMessage(t, error, t('marketActions.claimable.failed'))),
  });
  if (!wallet.isConnected || !wallet.address) return null;
  const address = wallet.address;
  const total = BigInt(claimable.data?.markets.totalWei ?? '0');
  const count = claimable.data?.markets.count ?? 0;
  return (
    <Card className="p-4">
      <section aria-labelledby="claimable-title" className="flex flex-col gap-2">
        <h2 id="claimable-title" className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={Coins} aria-hidden="true" className="size-4 text-brand" />
          {t('marketActions.claimable.title')}
        </h2>
        <p className="text-2xl font-bold tabular-nums">{format.bnb(total)}</p>
        <p className="text-xs text-muted">
          {total > 0n ? t('marketActions.claimable.bets', { count }) : t('marketActions.claimable.none')}
        </p>
        {total > 0n && (
          <Button
            disabled={claim.isPending}
            onClick={() =>
              claim.mutate({ userAddress: address, scope: 'markets', ...(betId ? { betId } : {}) })
            }
          >
            {claim.isPending ? t('marketActions.claimable.claiming') : t('marketActions.claimable.claim')}
          </Button>
        )}
      </section>
    </Card>
  );
}
