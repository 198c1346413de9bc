import type { Market } from '@pm/core/contract/markets';
import { type ComponentProps, type ComponentType, type ReactNode, Suspense, useState } from 'react';
import { useIsOperator } from '#api/use-is-operator.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { LoadingOverlay } from '#ui/loading-overlay.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';

// Parts not every visitor sees load when shown: the create and join dialogs (forms, Radix Dialog,
// the payment flow) when first opened, or when the pointer or focus reaches a button that opens
// them; the claimable panel (claim API and schemas) for a connected wallet; the operator controls
// (typed-data signing) for an operator only.
const CreateMarketDialogModule = lazyWithPreload(() =>
  import('./create-market-dialog.tsx').then((module) => module.CreateMarketDialog),
);
const ClaimablePanelModule = lazyWithPreload(() =>
  import('./claimable-panel.tsx').then((module) => module.ClaimablePanel),
);
const MarketOperatorControlsModule = lazyWithPreload(() =>
  import('./review/market-operator-controls.tsx').then((module) => module.MarketOperatorControls),
);
const MarketReviewPanelModule = lazyWithPreload(() =>
  import('./review/market-review-panel.tsx').then((module) => module.MarketReviewPanel),
);
const SettledMarketsModule = lazyWithPreload(() =>
  import('./settled-markets.tsx').then((module) => module.SettledMarkets),
);
const MyWinningsModule = lazyWithPreload(() =>
  import('./my-winnings.tsx').then((module) => module.MyWinnings),
);
const EvidenceSectionModule = lazyWithPreload(() =>
  import('./evidence/evidence-section.tsx').then((module) => module.EvidenceSection),
);
const JoinMarketDialogModule = lazyWithPreload(() =>
  import('./join-market-dialog.tsx').then((module) => module.JoinMarketDialog),
);
const MoreOpenMarketsModule = lazyWithPreload(() =>
  import('./more-open-markets.tsx').then((module) => module.MoreOpenMarkets),
);
const OlderBetsModule = lazyWithPreload(() => import('./older-bets.tsx').then((module) => module.OlderBets));
const PriceCardFactsModule = lazyWithPreload(() =>
  import('./price/price-card-facts.tsx').then((module) => module.PriceCardFacts),
);
const PriceMarketPanelModule = lazyWithPreload(() =>
  import('./price/price-market-panel.tsx').then((module) => module.PriceMarketPanel),
);
const PriceMarketDescriptionModule = lazyWithPreload(() =>
  import('./price/price-market-text.tsx').then((module) => module.PriceMarketDescription),
);
const PriceMarketAnalysisModule = lazyWithPreload(() =>
  import('./price/price-market-text.tsx').then((module) => module.PriceMarketAnalysis),
);
const PriceResolutionCardModule = lazyWithPreload(() =>
  import('./price/price-market-panel.tsx').then((module) => module.PriceResolutionCard),
);

/** Renders a lazy dialog from its first opening on, and keeps it (and its form's state) mounted. */
function OnceOpened<Props extends object>({
  open,
  dialog: Dialog,
  props,
}: {
  open: boolean;
  dialog: ComponentType<Props>;
  props: Props;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={open ? <LoadingOverlay label={t('app.loading')} /> : null}>
      <Dialog {...props} />
    </Suspense>
  );
}

type CreateProps = { open: boolean; onOpenChange: (open: boolean) => void };

export function CreateMarketDialog(props: CreateProps) {
  return <OnceOpened open={props.open} dialog={CreateMarketDialogModule} props={props} />;
}
CreateMarketDialog.preload = CreateMarketDialogModule.preload;

type JoinProps = { market: Market | null; onClose: () => void };

export function JoinMarketDialog(props: JoinProps) {
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

/** Issue 11: the settled markets list, loaded when the Settled chip is first chosen (or reached). */
export function SettledMarkets(props: { renderCard: (market: Market) => ReactNode }) {
  return (
    <Suspense fallback={<Skeleton className="h-56 w-full" />}>
      <SettledMarketsModule {...props} />
    </Suspense>
  );
}
SettledMarkets.preload = SettledMarketsModule.preload;

/**
 * Issue 11: the proposed verdict, its countdown and the resolution timeline; loaded only for a
 * market in review or with a recorded step (most market pages have neither).
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

/** Issue 18: what the judge read and quoted, once a market has had a resolution attempt. */
export function EvidenceSection(props: ComponentProps<typeof EvidenceSectionModule>) {
  return (
    <Suspense fallback={<Skeleton className="h-48 w-full" />}>
      <EvidenceSectionModule {...props} />
    </Suspense>
  );
}

/** Issue 21: the board's open markets after its first page, for a board that has more. */
export function MoreOpenMarkets(props: ComponentProps<typeof MoreOpenMarketsModule>) {
  return (
    <Suspense fallback={null}>
      <MoreOpenMarketsModule {...props} />
    </Suspense>
  );
}

/** Issue 21: a market's bets after the first page, loaded when a visitor asks for them. */
export function OlderBets(props: { marketId: number; cursor: string }) {
  return (
    <Suspense fallback={<Skeleton className="h-24 w-full" />}>
      <OlderBetsModule {...props} />
    </Suspense>
  );
}
OlderBets.preload = OlderBetsModule.preload;

/** Issue 19: a price market's card lines (coin, target, live price and gap); loaded when one is listed. */
export function PriceCardFacts(props: { market: Market }) {
  return (
    <Suspense fallback={<Skeleton className="h-12 w-full" />}>
      <PriceCardFactsModule {...props} />
    </Suspense>
  );
}

/** Issue 19: a price market's chart since creation and its settlement reading (its page only). */
export function PriceMarketPanel(props: { market: Market }) {
  return (
    <Suspense fallback={<Skeleton className="h-64 w-full" />}>
      <PriceMarketPanelModule {...props} />
    </Suspense>
  );
}

/** Issue 19: "How resolution works" for a price market: the feed decides. */
export function PriceResolutionCard() {
  return (
    <Suspense fallback={<Skeleton className="h-32 w-full" />}>
      <PriceResolutionCardModule />
    </Suspense>
  );
}

/** Issue 31: a price market's rule in the reader's language, from its fields (its page only). */
export function PriceMarketDescription(props: { market: Market }) {
  return (
    <Suspense fallback={<Skeleton className="h-10 w-full" />}>
      <PriceMarketDescriptionModule {...props} />
    </Suspense>
  );
}

/** Issue 31: how a settled price market was decided, in the reader's language, from its fields. */
export function PriceMarketAnalysis(props: { market: Market }) {
  return (
    <Suspense fallback={<Skeleton className="h-5 w-full" />}>
      <PriceMarketAnalysisModule {...props} />
    </Suspense>
  );
}
