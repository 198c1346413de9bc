/** Spec §2 /market/{id}: one market with its bets. Filled by the markets issue. */
export function MarketDetail({ marketId }: { marketId: string }) {
  return <div data-slot="market-detail" data-market-id={marketId} />;
}
