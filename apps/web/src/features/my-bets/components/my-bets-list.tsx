import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { Skeleton } from '#ui/skeleton.tsx';
import { toast } from '#ui/toast.ts';
import { useWallet } from '#wallet/hooks/use-wallet.ts';

// Loaded once a wallet is connected: a visitor without one is only sent to /predictions (JS budget).
const MyHistory = lazy(() => import('./my-history.tsx').then((module) => ({ default: module.MyHistory })));

/**
 * docs/product.md §2 /my-bets: needs a wallet (else the spec's toast and /predictions). The user's
 * bets in both games with their P&L, filters, and a claim button on each claimable bet.
 */
export function MyBetsList() {
  const { t } = useTranslation();
  const wallet = useWallet();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (wallet.isConnected || wallet.isConnecting) return;
    toast.error(t('myBets.connectFirst'));
    navigate('/predictions', { replace: true });
  }, [wallet.isConnected, wallet.isConnecting, navigate, t]);

  if (!wallet.isConnected || !wallet.address) return null;
  return (
    <Suspense fallback={<Skeleton className="h-48 w-full" />}>
      <MyHistory address={wallet.address} />
    </Suspense>
  );
}
