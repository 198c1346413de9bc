import type { Market } from '@pm/core/contract/markets';
import { type ComponentProps, Suspense } from 'react';
import { useIsOperator } from '#api/use-is-operator.ts';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { Skeleton } from '#ui/skeleton.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';

// The review window and the operator's controls load only where they show (docs/decisions/006): the
// panel for a market in review or with a recorded step, the controls (typed-data signing) for an
// operator only.

const MarketOperatorControlsModule = lazyWithPreload(() =>
  import('./market-operator-controls.tsx').then((module) => module.MarketOperatorControls),
);
const MarketReviewPanelModule = lazyWithPreload(() =>
  import('./market-review-panel.tsx').then((module) => module.MarketReviewPanel),
);

/** Resolve / void for a connected operator (docs/architecture.md "Operators"); nothing for anyone else. */
export function MarketOperatorControls({ market, nowMs }: { market: Market; nowMs: number }) {
  const wallet = useWallet();
  const isOperator = useIsOperator(wallet.address);
  if (!wallet.address || !isOperator || market.status === 'settled') return null;
  return (
    <Suspense fallback={null}>
      <MarketOperatorControlsModule market={market} address={wallet.address} nowMs={nowMs} />
    </Suspense>
  );
}

/**
 * The proposed verdict, its countdown and the resolution timeline; loaded only for a market in
 * review or with a recorded step (most market pages have neither).
 */
export function MarketReviewPanel(props: ComponentProps<typeof MarketReviewPanelModule>) {
  const { market, timeline } = props;
  if (!(market.status === 'settling' && market.review) && timeline.length === 0) return null;
  return (
    <Suspense fallback={<Skeleton className="h-32 w-full" />}>
      <MarketReviewPanelModule {...props} />
    </Suspense>
  );
}
