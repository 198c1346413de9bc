import { Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { recordInAppNavigation, recordPopState } from '#lib/navigation-history.ts';
import { RouteErrorBoundary } from './error-boundary.tsx';
import { lazyRoute } from './lazy-route.ts';

// The landing's own strings beyond the shell (the vault reserves card) come with its chunk.
const Landing = lazyRoute(() => import('#routes/landing.tsx'), ['reserves']);
// Every page but the landing: API, wallet (wagmi), toasts and the app routes load with it, so `/`
// never loads wagmi (docs/decisions/006).
const AppRoutes = lazyRoute(() => import('./app-routes.tsx'), ['app']);

/**
 * Fetches what the page at `pathname` needs before the first render (main.tsx), all at once where
 * it can: the landing's chunk, or the app shell and then the page's chunk, strings and config.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  if (pathname === '/') {
    await Landing.preload();
    return;
  }
  const shell = await AppRoutes.preload();
  await shell.preloadPage(pathname);
}

/**
 * docs/product.md §2 routes, on wouter: React Router's ~13 kB gzip would not fit the landing page's JS budget
 * (docs/decisions/006).
 */
export function AppRouter() {
  return (
    <>
      <NavigationEffects />
      <RouteErrorBoundary>
        <Suspense fallback={<div className="min-h-dvh" />}>
          <Switch>
            <Route path="/">
              <Landing />
            </Route>
            <Route>
              <AppRoutes />
            </Route>
          </Switch>
        </Suspense>
      </RouteErrorBoundary>
    </>
  );
}

/** A new page starts at its top; Back and Forward leave the browser's own scroll restoration be. */
function NavigationEffects() {
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    window.addEventListener('popstate', recordPopState);
    return () => window.removeEventListener('popstate', recordPopState);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new location is what scrolls up.
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!recordInAppNavigation().wasPop) window.scrollTo(0, 0);
  }, [location]);
  return null;
}
