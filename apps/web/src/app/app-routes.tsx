import { Route, Switch } from 'wouter';
import { AppLayout, prefetchAppConfig } from './app-layout.tsx';
import { lazyRoute } from './lazy-route.ts';

const NotFound = lazyRoute(() => import('#routes/not-found.tsx'));

const PAGES = [
  { path: '/predictions', Page: lazyRoute(() => import('#routes/predictions.tsx'), ['markets']) },
  {
    path: '/oracle-predictions',
    Page: lazyRoute(() => import('#routes/oracle-predictions.tsx'), ['oracle']),
  },
  { path: '/market/:id', Page: lazyRoute(() => import('#routes/market.tsx'), ['markets']) },
  // Only its own strings: the history rows show no market categories.
  { path: '/my-bets', Page: lazyRoute(() => import('#routes/my-bets.tsx'), ['myBets']) },
  { path: '/leaderboard', Page: lazyRoute(() => import('#routes/leaderboard.tsx'), ['leaderboard']) },
  // The profile is all history: its strings load with the route (My Bets loads them once a wallet is there).
  { path: '/u/:address', Page: lazyRoute(() => import('#routes/profile.tsx'), ['myBets', 'history']) },
];

/** Whether `pathname` matches a route pattern of PAGES (`:name` matches one segment). */
function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = pathname.replace(/\/$/, '').split('/');
  return want.length === got.length && want.every((part, i) => part.startsWith(':') || part === got[i]);
}

/** Everything the page at `pathname` needs to show, fetched at once: its chunk, strings and the app config. */
export function preloadPage(pathname: string): Promise<unknown> {
  const page = PAGES.find(({ path }) => matches(path, pathname))?.Page ?? NotFound;
  return Promise.all([page.preload(), prefetchAppConfig()]);
}

/**
 * docs/product.md §2 routes other than the landing, inside the app layout (top bar, wallet, API). Loaded as
 * one chunk with the layout, so what every page shares comes with it once.
 */
export function Component() {
  return (
    <AppLayout>
      <Switch>
        {PAGES.map(({ path, Page }) => (
          <Route key={path} path={path}>
            <Page />
          </Route>
        ))}
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </AppLayout>
  );
}
