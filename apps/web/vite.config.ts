import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { compressAssets } from './compress-assets.ts';

/** The modules at these paths (from the repository's root; `/` matches either separator). */
function modulesAt(...paths: string[]): RegExp {
  const alternatives = paths.map((path) =>
    path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', '[\\\\/]'),
  );
  return new RegExp(`[\\\\/](${alternatives.join('|')})$`);
}

// Chunk groups (decision 006). Rolldown splits modules by which entries and lazy chunks reach them,
// and does not count what an importer has already loaded: every lazy dialog or part that shares
// a module with a page cuts the page's code into more files, and each file costs its gzip and
// import overhead (~0.1–0.2 kB). These groups put back together what is loaded at start anyway.
// A module listed here loads wherever any importer needs it, so a group takes only modules that
// the pages it serves load at start, and nothing the landing page loads (the landing's vault
// figures, lazy, load the api-client group and nothing else).

/** What every app route loads at start besides app-routes and api-client. */
const APP_START = [
  // The wallet libraries' helpers (viem's address, hex and error helpers, wagmi's base error,
  // noble's hash utils).
  /node_modules[\\/](viem[\\/]_esm[\\/](utils[\\/](data[\\/](isHex|size|pad|trim)|encoding[\\/](fromHex|toHex|toBytes)|hash[\\/]keccak256|lru|address[\\/](getAddress|isAddress)|stringify)|errors[\\/](version|base|data|encoding|address|request|utils)|accounts[\\/]utils[\\/]parseAccount)|@noble[\\/]hashes[\\/]esm[\\/](_u64|sha3|crypto|utils)|@wagmi[\\/]core[\\/]dist[\\/]esm[\\/](version|utils[\\/]getVersion|errors[\\/]base))\.js$/,
  // viem's JSON-RPC errors and retry helpers, which the injected connector uses at start and the
  // HTTP transport (lazy-http.ts) with its first request.
  /node_modules[\\/]viem[\\/]_esm[\\/](errors[\\/]rpc|utils[\\/](wait|uid|promise[\\/]withRetry))\.js$/,
  // TanStack Query's hooks and observers (the client and caches are in app-routes).
  /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]build[\\/]modern[\\/](?!(queryClient|queryCache|mutationCache|hydration|streamedQuery|index)\.js)[^\\/]+\.js$/,
  modulesAt(
    'apps/web/src/ui/card.tsx',
    'apps/web/src/ui/status-message.tsx',
    'lucide/dist/esm/icons/circle-alert.mjs',
    'apps/web/src/ui/page.tsx',
    // The live data of the markets and oracle pages: realtime socket, server clock, prices, vault.
    'apps/web/src/lib/realtime.ts',
    'apps/web/src/lib/realtime-queries.ts',
    'apps/web/src/lib/use-server-now.ts',
    'apps/web/src/lib/stored-list.ts',
    'apps/web/src/api/get-price.ts',
    'apps/web/src/api/use-is-operator.ts',
    'apps/web/src/api/claimable-query-key.ts',
    'lucide/dist/esm/icons/loader-circle.mjs',
    'packages/core/src/payouts.ts',
    'packages/core/src/contract/vault.ts',
    'packages/core/src/contract/realtime.ts',
    'packages/core/src/contract/bet-return.ts',
  ),
];

/** The API client with zod and the formatters: every app route, and the landing's vault figures. */
const API_CLIENT = [
  /node_modules[\\/]zod[\\/]/,
  modulesAt(
    'apps/web/src/lib/api-client.ts',
    'packages/core/src/contract/primitives.ts',
    'packages/core/src/contract/errors.ts',
    'apps/web/src/lib/use-format.ts',
    'packages/core/src/decimal.ts',
    'packages/core/src/money.ts',
    'packages/core/src/price.ts',
  ),
];

/** What the market pages (the board, a market, My Bets' redirect to the board) share at start. */
const MARKETS_START = modulesAt(
  'apps/web/src/features/markets/api/get-markets.ts',
  'apps/web/src/features/markets/api/get-market.ts',
  'apps/web/src/api/market-query-keys.ts',
  'apps/web/src/api/pending-records-key.ts',
  'apps/web/src/features/markets/hooks/use-markets-realtime.ts',
  'apps/web/src/lib/use-now-ms.ts',
  // The lazy parts' wrappers of the markets and of the features the market pages compose with it
  // (routes/parts/market-parts.tsx).
  'apps/web/src/features/markets/components/lazy-parts.tsx',
  'apps/web/src/features/price-markets/components/lazy-parts.tsx',
  'apps/web/src/features/market-review/components/lazy-parts.tsx',
  'apps/web/src/features/market-evidence/components/lazy-parts.tsx',
  'apps/web/src/routes/parts/market-parts.tsx',
  'apps/web/src/ui/once-opened.tsx',
  'apps/web/src/features/markets/components/market-status-badge.tsx',
  'apps/web/src/features/markets/utils/share.ts',
  'apps/web/src/lib/use-market-title.ts',
  'apps/web/src/ui/loading-overlay.tsx',
  'apps/web/src/api/get-vault.ts',
  'packages/core/src/market-rules.ts',
  'packages/core/src/contract/markets.ts',
  'packages/core/src/contract/review.ts',
  'packages/core/src/contract/evidence.ts',
  'packages/core/src/contract/page-cursor.ts',
  'lucide/dist/esm/icons/users.mjs',
  'lucide/dist/esm/icons/copy.mjs',
  'lucide/dist/esm/icons/rotate-ccw-clock.mjs',
);

/** What the oracle page loads at start beyond APP_START, shared with the markets' lazy dialogs. */
const ORACLE_START = modulesAt(
  'apps/web/src/wallet/hooks/use-send-payment.ts',
  'apps/web/src/wallet/api/get-account-kind.ts',
  'apps/web/src/wallet/utils/payment-errors.ts',
  'apps/web/src/lib/bnb-input.ts',
  'apps/web/src/lib/is-final-refusal.ts',
  'lucide/dist/esm/icons/hourglass.mjs',
  'packages/core/src/contract/oracle.ts',
);

/** The chunk graph of the build, for the preload lists (modulePreload below). */
let outputBundle: Rolldown.OutputBundle | undefined;
const keepBundle: Plugin = {
  name: 'keep-bundle',
  apply: 'build',
  generateBundle(_options, bundle) {
    outputBundle = bundle;
  },
};

/** A chunk and every chunk it imports statically, all loaded before its code runs. */
function loadedWith(fileName: string, loaded = new Set<string>()): Set<string> {
  if (loaded.has(fileName)) return loaded;
  loaded.add(fileName);
  const chunk = outputBundle?.[fileName];
  if (chunk?.type === 'chunk') for (const imported of chunk.imports) loadedWith(imported, loaded);
  return loaded;
}

export default defineConfig({
  plugins: [react(), tailwindcss(), compressAssets(), keepBundle],
  resolve: {
    // The shim of useSyncExternalStore (for React < 18) that wouter and wagmi import: React 19
    // has it built in, so the shim's fallback code need not ship (docs/decisions/006).
    alias: [
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector.js',
      },
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store-shim.ts', import.meta.url)),
      },
    ],
  },
  // Locale files are imported whole (their default export): no named export per top-level key.
  json: { namedExports: false },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: 'http://127.0.0.1:8788', ws: true, changeOrigin: true } },
  },
  preview: {
    host: '127.0.0.1',
    proxy: { '/api': { target: 'http://127.0.0.1:8788', ws: true, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: {
      // Every browser we support preloads modules natively; the polyfill would cost every page.
      polyfill: false,
      // What a lazy import fetches alongside its chunk, listed in the importing chunk: not the
      // chunks that importer has already loaded (Vite lists them all; each name costs every page
      // that loads the importer).
      resolveDependencies: (_file, deps, { hostId, hostType }) => {
        if (hostType !== 'js') return deps;
        const loaded = loadedWith(hostId);
        return deps.filter((dep) => !loaded.has(dep));
      },
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            { name: 'app-start', test: (id) => APP_START.some((modules) => modules.test(id)) },
            { name: 'api-client', test: (id) => API_CLIENT.some((modules) => modules.test(id)) },
            { name: 'markets-start', test: MARKETS_START },
            { name: 'oracle-start', test: ORACLE_START },
          ],
        },
      },
    },
  },
});
