import type { Market } from '@pm/core/contract/markets';
import { Suspense } from 'react';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { Skeleton } from '#ui/skeleton.tsx';

// Price Oracle markets' parts load with what shows them (docs/decisions/006): a price market's card
// lines when one is listed, its chart and settlement reading on its page only.

const PriceCardFactsModule = lazyWithPreload(() =>
  import('./price-card-facts.tsx').then((module) => module.PriceCardFacts),
);
const PriceMarketPanelModule = lazyWithPreload(() =>
  import('./price-market-panel.tsx').then((module) => module.PriceMarketPanel),
);
const PriceResolutionCardModule = lazyWithPreload(() =>
  import('./price-market-panel.tsx').then((module) => module.PriceResolutionCard),
);

/**
 * A price market's rule in the reader's language, from its fields. It suspends while its code and
 * strings load: whoever shows it chooses the placeholder (a Suspense around it).
 */
export const PriceMarketDescription = lazyWithPreload(() =>
  import('./price-market-text.tsx').then((module) => module.PriceMarketDescription),
);

/** How a settled price market was decided, in the reader's language, from its fields; suspends as above. */
export const PriceMarketAnalysis = lazyWithPreload(() =>
  import('./price-market-text.tsx').then((module) => module.PriceMarketAnalysis),
);

/** A price market's card lines (coin, target, live price and gap); loaded when one is listed. */
export function PriceCardFacts(props: { market: Market }) {
  return (
    <Suspense fallback={<Skeleton className="h-12 w-full" />}>
      <PriceCardFactsModule {...props} />
    </Suspense>
  );
}

/** A price market's chart since creation and its settlement reading (its page only). */
export function PriceMarketPanel(props: { market: Market }) {
  return (
    <Suspense fallback={<Skeleton className="h-64 w-full" />}>
      <PriceMarketPanelModule {...props} />
    </Suspense>
  );
}

/** "How resolution works" for a price market: the feed decides. */
export function PriceResolutionCard() {
  return (
    <Suspense fallback={<Skeleton className="h-32 w-full" />}>
      <PriceResolutionCardModule />
    </Suspense>
  );
}
