import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compressAssets } from './compress-assets.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), compressAssets()],
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
    // Every browser we support preloads modules natively; the polyfill would cost every page.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // React Query's hooks and provider stay one chunk. Left alone, the lazy My Bets history
        // split them in two and every app route paid ~0.6 kB more for the extra file (decision 006).
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            {
              // The wallet libraries' helpers that every app route needs at start (viem's address,
              // hex and error helpers, wagmi's base error, noble's hash utils): one chunk. Left
              // alone, Rolldown cut them into five small files by which lazy chunks share them, and
              // every app route paid ~0.15 kB per extra file (decision 006). viem's RPC error classes
              // (the HTTP transport's, at start) joined when the escrow's lazy claim code came to share
              // them: left alone they became a sixth start file of their own (+0.5 kB a route).
              name: 'wallet-core',
              test: /node_modules[\\/](viem[\\/]_esm[\\/](utils[\\/](data[\\/](isHex|size|pad|trim)|encoding[\\/](fromHex|toHex|toBytes)|hash[\\/]keccak256|lru|address[\\/](getAddress|isAddress)|stringify)|errors[\\/](version|base|data|encoding|address|request|rpc|utils)|accounts[\\/]utils[\\/]parseAccount)|@noble[\\/]hashes[\\/]esm[\\/](_u64|sha3|crypto|utils)|@wagmi[\\/]core[\\/]dist[\\/]esm[\\/](version|utils[\\/]getVersion|errors[\\/]base))\.js$/,
            },
            {
              name: 'react-query',
              test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]build[\\/]modern[\\/](?!(queryClient|queryCache|mutationCache|hydration|streamedQuery|index)\.js)[^\\/]+\.js$/,
            },
          ],
        },
      },
    },
  },
});
