import type { ComponentProps } from 'react';
import { EvidenceSection } from '#features/market-evidence/components/lazy-parts.tsx';
import { MarketOperatorControls, MarketReviewPanel } from '#features/market-review/components/lazy-parts.tsx';
import type { MarketParts } from '#features/markets/components/market-parts.ts';
import {
  PriceCardFacts,
  PriceMarketAnalysis,
  PriceMarketDescription,
  PriceMarketPanel,
  PriceResolutionCard,
} from '#features/price-markets/components/lazy-parts.tsx';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { OnceOpened } from '#ui/once-opened.tsx';

/**
 * What the market pages (the board, a market) show of the price markets, the review window and the
 * evidence: composed here, since features do not import one another (docs/architecture.md "The web
 * app"). Each part is lazy and loads where it shows (docs/decisions/006).
 */
export const MARKET_PARTS: MarketParts = {
  PriceCardFacts,
  PriceMarketDescription,
  PriceMarketAnalysis,
  PriceMarketPanel,
  PriceResolutionCard,
  MarketReviewPanel,
  MarketOperatorControls,
  EvidenceSection,
};

// The create dialog (forms, Radix Dialog, the payment flow) loads when first opened, or when the
// pointer or focus reaches a button that opens it. Its wrapper is here, with the market pages'
// other lazy parts, so their chunks' preload lists are one (docs/decisions/006).
const CreateMarketDialogModule = lazyWithPreload(() =>
  import('./create-market-dialog.tsx').then((module) => module.CreateMarketDialog),
);

export function CreateMarketDialog(props: ComponentProps<typeof CreateMarketDialogModule>) {
  return <OnceOpened open={props.open} dialog={CreateMarketDialogModule} props={props} />;
}
CreateMarketDialog.preload = CreateMarketDialogModule.preload;
