import { type ReactNode, Suspense, useState } from 'react';
import type { Chain } from 'viem';
import { type Connector, useConnect, useConnectors, WagmiProvider } from 'wagmi';
import type { AppConfig } from '#api/get-app-config.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { toast } from '#ui/toast.ts';
import { createWagmiConfig, deploymentChain } from '../utils/create-wagmi-config.ts';
import { orderConnectors } from '../utils/order-connectors.ts';
import { walletErrorMessage } from '../utils/wallet-error-message.ts';
import { WalletContext } from '../wallet-context.ts';

// Needed only when several wallets are installed and the user presses Connect.
const WalletChooserDialog = lazyWithPreload(() =>
  import('./wallet-chooser-dialog.tsx').then((module) => module.WalletChooserDialog),
);

/**
 * Wagmi for the app routes. It is rendered only by the app layout, a lazy route module, so the
 * landing page never downloads wagmi, viem or a connector (docs/decisions/006). Needs a
 * QueryClientProvider above it.
 */
export function WalletProvider({ appConfig, children }: { appConfig: AppConfig; children: ReactNode }) {
  // The deployment's chain does not change while the page is open: build the config once.
  const [wagmiConfig] = useState(() => createWagmiConfig(appConfig));
  const [chain] = useState(() => deploymentChain(appConfig));
  return (
    <WagmiProvider config={wagmiConfig}>
      <ConnectFlow chain={chain}>{children}</ConnectFlow>
    </WagmiProvider>
  );
}

function ConnectFlow({ chain, children }: { chain: Chain; children: ReactNode }) {
  const { t } = useTranslation();
  const connectors = useConnectors();
  const { mutate, isPending } = useConnect();
  const [isChoosing, setIsChoosing] = useState(false);
  const candidates = orderConnectors(connectors, 'ethereum' in window);

  const connectWith = (connector: Connector) => {
    setIsChoosing(false);
    // docs/product.md §6: ask for the deployment's chain while connecting.
    mutate(
      { connector, chainId: chain.id },
      { onError: (error) => toast.error(walletErrorMessage(error) ?? t('wallet.connectFailed')) },
    );
  };

  const connect = () => {
    const [only, ...others] = candidates;
    if (!only) toast.error(t('wallet.noWallet'));
    else if (others.length === 0) connectWith(only);
    else setIsChoosing(true);
  };

  return (
    <WalletContext value={{ chain, connect, isConnecting: isPending }}>
      {children}
      {isChoosing && (
        <Suspense fallback={null}>
          <WalletChooserDialog
            open
            onOpenChange={setIsChoosing}
            connectors={candidates}
            onChoose={connectWith}
          />
        </Suspense>
      )}
    </WalletContext>
  );
}
