/** Spec §2 /predictions: the market list, side panels and dialogs. Filled by the markets issue. */
export function MarketsBoard() {
  return <div data-slot="markets-board" />;
}
