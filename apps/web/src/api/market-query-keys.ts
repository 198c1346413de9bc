// The markets' query keys, shared by the features that read markets (the board, a market's page) and
// those that change them (create, join, flag, an operator's verdict), which invalidate them: features
// do not import one another (docs/architecture.md "The web app"). The query options of each endpoint
// build their keys from these.

/** Every markets query: what a create, a bet, a flag or a verdict invalidates. */
export const MARKETS_QUERY_KEY = ['markets'] as const;
/** The board's pages of open markets. */
export const OPEN_MARKETS_QUERY_KEY = [...MARKETS_QUERY_KEY, 'open'] as const;
/** The settled markets, the side panel's and the Settled filter's pages. */
export const SETTLED_MARKETS_QUERY_KEY = [...MARKETS_QUERY_KEY, 'settled'] as const;
/** Every market's page. */
export const MARKET_DETAILS_QUERY_KEY = [...MARKETS_QUERY_KEY, 'detail'] as const;
/** One market's page; its odds and its bets' pages are under it, so its realtime events refetch them too. */
export const marketQueryKey = (id: number) => [...MARKET_DETAILS_QUERY_KEY, id] as const;
