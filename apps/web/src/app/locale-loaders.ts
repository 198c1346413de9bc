import type { NamespaceLoaders } from '#i18n/i18n.ts';

/**
 * Where each namespace's messages live, loaded on demand: the landing page ships only the English
 * shell strings (main.tsx imports them); the app layout and each route load theirs (router.tsx),
 * and Chinese loads when the user switches to it.
 */
export const LOCALE_LOADERS = {
  shell: { zh: () => import('#i18n/zh.json') },
  app: { en: () => import('#i18n/app/en.json'), zh: () => import('#i18n/app/zh.json') },
  /** A connected wallet's menu and the wallet chooser: loaded with them (decision 006). */
  walletParts: {
    en: () => import('#i18n/wallet-parts/en.json'),
    zh: () => import('#i18n/wallet-parts/zh.json'),
  },
  markets: {
    en: () => import('#features/markets/locales/en.json'),
    zh: () => import('#features/markets/locales/zh.json'),
  },
  /**
   * The markets' actions: the create and join dialogs, the claimable panel, the operator controls.
   * Loaded with them (decision 006), not with the pages; in i18n/, since three features use them.
   */
  marketActions: {
    en: () => import('#i18n/market-actions/en.json'),
    zh: () => import('#i18n/market-actions/zh.json'),
  },
  /** The resolution review window's strings (decision 011): the market page only. */
  review: {
    en: () => import('#features/market-review/locales/en.json'),
    zh: () => import('#features/market-review/locales/zh.json'),
  },
  /** The evidence section, "How resolution works" and the analysis: lazy parts only. */
  evidence: {
    en: () => import('#features/market-evidence/locales/en.json'),
    zh: () => import('#features/market-evidence/locales/zh.json'),
  },
  /** Price Oracle markets' strings: the create dialog, a price market's card and page. */
  price: {
    en: () => import('#features/price-markets/locales/en.json'),
    zh: () => import('#features/price-markets/locales/zh.json'),
  },
  /** The leaderboard page's strings: that route only. */
  leaderboard: {
    en: () => import('#features/leaderboard/locales/en.json'),
    zh: () => import('#features/leaderboard/locales/zh.json'),
  },
  oracle: {
    en: () => import('#features/oracle/locales/en.json'),
    zh: () => import('#features/oracle/locales/zh.json'),
  },
  /**
   * The wallet's own claim from the escrow and its credits' withdrawal: loaded with that part
   * (a connected wallet on the oracle page), not with the route.
   */
  selfClaim: {
    en: () => import('#wallet/self-claim/locales/en.json'),
    zh: () => import('#wallet/self-claim/locales/zh.json'),
  },
  myBets: {
    en: () => import('#features/my-bets/locales/en.json'),
    zh: () => import('#features/my-bets/locales/zh.json'),
  },
  /** The landing page's vault reserves card, loaded with the landing (not in the shell). */
  reserves: {
    en: () => import('#features/landing/locales/en.json'),
    zh: () => import('#features/landing/locales/zh.json'),
  },
  /**
   * A wallet's history and P&L (decision 012) and its flag bonds: loaded with the history,
   * so /my-bets without a wallet (a redirect) loads only the route's few strings (decision 006).
   */
  history: {
    en: () => import('#features/my-bets/locales/history/en.json'),
    zh: () => import('#features/my-bets/locales/history/zh.json'),
  },
} satisfies NamespaceLoaders;

export type Namespace = keyof typeof LOCALE_LOADERS;
