/** Spec §2 /oracle-predictions: price, rounds and claims. Filled by the oracle issue. */
export function OracleBoard() {
  return <div data-slot="oracle-board" />;
}
