import { TOOLTIP_DELAY_MS } from '@pm/core/constants';
import { Tooltip } from 'radix-ui';
import { Outlet, ScrollRestoration } from 'react-router';

/** What every page shares, the landing included: nothing that talks to a wallet or the API. */
export function RootLayout() {
  return (
    <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS}>
      <Outlet />
      <ScrollRestoration />
    </Tooltip.Provider>
  );
}
