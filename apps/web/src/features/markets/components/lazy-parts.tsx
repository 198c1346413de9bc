import type { Market } from '@pm/core/contract/markets';
import { type ComponentProps, type ReactNode, Suspense } from 'react';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { OnceOpened } from '#ui/once-opened.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';

// Parts not every visitor sees load when shown: the join dialog (form, Radix Dialog, the payment
// flow) when first opened, or when the pointer or focus reaches a button that opens it; the claimable
// panel (claim API and schemas) for a connected wallet.
const ClaimablePanelModule = lazyWithPreload(() =>
  import('./claimable-panel.tsx').then((module) => module.ClaimablePanel),
);
const SettledMarketsModule = lazyWithPreload(() =>
  import('./settled-markets.tsx').then((module) => module.SettledMarkets),
);
const MyWinningsModule = lazyWithPreload(() =>
  import('./my-winnings.tsx').then((module) => module.MyWinnings),
);
const JoinMarketDialogModule = lazyWithPreload(() =>
  import('./join-market-dialog.tsx').then((module) => module.JoinMarketDialog),
);
const MoreOpenMarketsModule = lazyWithPreload(() =>
  import('./more-open-markets.tsx').then((module) => module.MoreOpenMarkets),
);
const OlderBetsModule = lazyWithPreload(() => import('./older-bets.tsx').then((module) => module.OlderBets));

export function JoinMarketDialog(props: ComponentProps<typeof JoinMarketDialogModule>) {
  return <OnceOpened open={props.market !== null} dialog={JoinMarketDialogModule} props={props} />;
}
JoinMarketDialog.preload = JoinMarketDialogModule.preload;

/** docs/product.md §2 Claimable Winnings, for a connected wallet only. */
export function ClaimablePanel(props: { betId?: number }) {
  const wallet = useWallet();
  if (!wallet.isConnected) return null;
  return (
    <Suspense fallback={null}>
      <ClaimablePanelModule {...props} />
    </Suspense>
  );
}

/** A settled market's winnings of the connected wallet (docs/product.md §2 market page). */
export function MyWinnings(props: { marketId: number; address: string }) {
  return (
    <Suspense fallback={null}>
      <MyWinningsModule {...props} />
    </Suspense>
  );
}

/** The settled markets list, loaded when the Settled chip is first chosen (or reached). */
export function SettledMarkets(props: { renderCard: (market: Market) => ReactNode }) {
  return (
    <Suspense fallback={<Skeleton className="h-56 w-full" />}>
      <SettledMarketsModule {...props} />
    </Suspense>
  );
}
SettledMarkets.preload = SettledMarketsModule.preload;

/** The board's open markets after its first page, for a board that has more. */
export function MoreOpenMarkets(props: ComponentProps<typeof MoreOpenMarketsModule>) {
  return (
    <Suspense fallback={null}>
      <MoreOpenMarketsModule {...props} />
    </Suspense>
  );
}

/** A market's bets after the first page, loaded when a visitor asks for them. */
export function OlderBets(props: { marketId: number; cursor: string }) {
  return (
    <Suspense fallback={<Skeleton className="h-24 w-full" />}>
      <OlderBetsModule {...props} />
    </Suspense>
  );
}
OlderBets.preload = OlderBetsModule.preload;
