import { WalletButton } from '#wallet/components/wallet-button.tsx';
import { WalletProvider } from '#wallet/components/wallet-provider.tsx';
// The wallet's imports above come first, in a group of their own: the build lays the app-routes
// chunk out in import order, and sorted after ui/ the same code gzips 0.26 kB larger on every app
// route (docs/decisions/006 budget; measured with the wallet in its own folder, src/wallet/).

import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { type ReactNode, Suspense } from 'react';
import { appConfigQueryOptions } from '#api/get-app-config.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { createQueryClient } from '#lib/query-client.ts';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { Toaster } from '#ui/toaster.tsx';
import { TopBar } from '#ui/top-bar.tsx';

// One client for the page's life: the layout unmounts on the landing page, the cache stays.
const queryClient = createQueryClient();

/** Starts reading the app config (chain, vault, …) before the layout renders (main.tsx). */
export function prefetchAppConfig() {
  return queryClient.prefetchQuery(appConfigQueryOptions());
}

/**
 * Layout of every page but the landing (a lazy route module): API state, the wallet (wagmi) and
 * toasts load here, with the first app page a user opens.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppFrame>{children}</AppFrame>
      {/* Below the top bar, so a toast never hides the wallet button it is about. */}
      <Toaster />
    </QueryClientProvider>
  );
}

function AppFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const config = useQuery(appConfigQueryOptions());

  if (config.isSuccess) {
    return (
      <WalletProvider appConfig={config.data}>
        <Shell walletArea={<WalletButton />}>
          {/* The top bar stays while the next page's chunk loads. */}
          <Suspense fallback={<PageSkeleton label={t('app.loading')} />}>{children}</Suspense>
        </Shell>
      </WalletProvider>
    );
  }

  return (
    <Shell walletArea={config.isPending ? <Skeleton className="h-10 w-36 rounded-lg" /> : null}>
      {config.isPending ? (
        <PageSkeleton label={t('app.loading')} />
      ) : (
        <div className="mx-auto w-full max-w-6xl px-4 py-10">
          <LoadFailed query={config}>{apiErrorMessage(t, config.error, t('app.configFailed'))}</LoadFailed>
        </div>
      )}
    </Shell>
  );
}

function PageSkeleton({ label }: { label: string }) {
  return (
    <div aria-busy="true" className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-4 py-10">
      <span className="sr-only">{label}</span>
      <Skeleton className="h-9 w-64" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}

function Shell({ walletArea, children }: { walletArea: ReactNode; children: ReactNode }) {
  return (
    <>
      <TopBar walletArea={walletArea} />
      <main id="main">{children}</main>
    </>
  );
}
