import type { MarketEvidence } from '@pm/core/contract/evidence';
import type { Market } from '@pm/core/contract/markets';
import type { ResolutionEvent } from '@pm/core/contract/review';
import type { ComponentType, ReactNode } from 'react';

/**
 * What the market pages show of other features (price markets, the review window, the evidence),
 * handed in by the routes that compose them: features do not import one another
 * (docs/architecture.md "The web app"). Each loads when shown (docs/decisions/006).
 */
export type MarketParts = {
  /** A price market's card lines. */
  PriceCardFacts: ComponentType<{ market: Market }>;
  /** A price market's rule in the reader's language. It suspends while it loads: put it under a Suspense. */
  PriceMarketDescription: ComponentType<{ market: Market }>;
  /** How a settled price market was decided. It suspends while it loads, as the description does. */
  PriceMarketAnalysis: ComponentType<{ market: Market }>;
  /** A price market's chart and settlement reading. */
  PriceMarketPanel: ComponentType<{ market: Market }>;
  /** "How resolution works" for a price market. */
  PriceResolutionCard: ComponentType;
  /** The verdict in review and the resolution timeline; `priceAnalysis` says a feed's settlement. */
  MarketReviewPanel: ComponentType<{
    market: Market;
    timeline: ResolutionEvent[];
    nowMs: number;
    priceAnalysis: ReactNode;
  }>;
  /** An operator's resolve and void. */
  MarketOperatorControls: ComponentType<{ market: Market; nowMs: number }>;
  /** What the judge read and quoted. */
  EvidenceSection: ComponentType<{ evidence: MarketEvidence }>;
};

/** What the board shows of them: its cards' price lines and its join dialog's price rule. */
export type BoardParts = Pick<MarketParts, 'PriceCardFacts' | 'PriceMarketDescription'>;
