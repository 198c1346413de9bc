import { createBrowserRouter } from 'react-router';
import { ErrorPage } from './error-page.tsx';
import { RootLayout } from './root-layout.tsx';

/**
 * Spec §2 routes. Every route module is lazy, its own chunk; the app layout (API, wallet, toasts)
 * wraps every page but the landing, so `/` never loads wagmi (issue 5, "Fast").
 */
export function createRouter() {
  return createBrowserRouter([
    {
      element: <RootLayout />,
      errorElement: <ErrorPage />,
      hydrateFallbackElement: <div className="min-h-dvh" />,
      children: [
        { index: true, lazy: () => import('../routes/landing.tsx') },
        {
          lazy: () => import('./app-layout.tsx'),
          children: [
            { path: 'predictions', lazy: () => import('../routes/predictions.tsx') },
            { path: 'oracle-predictions', lazy: () => import('../routes/oracle-predictions.tsx') },
            { path: 'market/:id', lazy: () => import('../routes/market.tsx') },
            { path: 'my-bets', lazy: () => import('../routes/my-bets.tsx') },
            { path: 'leaderboard', lazy: () => import('../routes/leaderboard.tsx') },
            { path: '*', lazy: () => import('../routes/not-found.tsx') },
          ],
        },
      ],
    },
  ]);
}
