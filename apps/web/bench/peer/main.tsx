import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bsc } from 'viem/chains';
import {
  createConfig,
  http,
  injected,
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  WagmiProvider,
} from 'wagmi';

// The peer `npm run bench:web` measures the app against (docs/benchmarks.md): the smallest page a
// wagmi + viem + React dapp can be, one injected-wallet connect button, as in the create-wagmi
// Vite template. Keep it that way: anything added here raises the budget of every app route.

const config = createConfig({
  chains: [bsc],
  connectors: [injected()],
  transports: { [bsc.id]: http() },
});

const queryClient = new QueryClient();

function App() {
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();

  if (connection.status === 'connected') {
    return (
      <div>
        <p>{connection.address}</p>
        <button type="button" onClick={() => disconnect.mutate()}>
          Disconnect
        </button>
      </div>
    );
  }

  return (
    <div>
      <h1>Connect</h1>
      {connectors.map((connector) => (
        <button type="button" key={connector.uid} onClick={() => connect.mutate({ connector })}>
          {connector.name}
        </button>
      ))}
      <p>{connect.error?.message}</p>
    </div>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
);
