/** Spec §2 /my-bets: the connected wallet's bets. Filled by the my-bets issue. */
export function MyBetsList() {
  return <div data-slot="my-bets-list" />;
}
