import { Route, Switch } from 'wouter';
import { AppLayout } from './app-layout.tsx';
import { lazyRoute } from './lazy-route.ts';

const Predictions = lazyRoute(() => import('../routes/predictions.tsx'), ['markets']);
const OraclePredictions = lazyRoute(() => import('../routes/oracle-predictions.tsx'), ['oracle']);
const Market = lazyRoute(() => import('../routes/market.tsx'), ['markets']);
const MyBets = lazyRoute(() => import('../routes/my-bets.tsx'), ['markets', 'myBets']);
const Leaderboard = lazyRoute(() => import('../routes/leaderboard.tsx'));
const NotFound = lazyRoute(() => import('../routes/not-found.tsx'));

/**
 * Spec §2 routes other than the landing, inside the app layout (top bar, wallet, API). Loaded as
 * one chunk with the layout, so what every page shares comes with it once.
 */
export function Component() {
  return (
    <AppLayout>
      <Switch>
        <Route path="/predictions">
          <Predictions />
        </Route>
        <Route path="/oracle-predictions">
          <OraclePredictions />
        </Route>
        <Route path="/market/:id">
          <Market />
        </Route>
        <Route path="/my-bets">
          <MyBets />
        </Route>
        <Route path="/leaderboard">
          <Leaderboard />
        </Route>
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </AppLayout>
  );
}
