import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Everything that talks to a wallet or a chain. Kept in one chunk that only the app routes import,
// so the landing page ships no wallet code (issue 5, "Fast").
const WALLET_PACKAGES =
  /[\\/]node_modules[\\/](wagmi|@wagmi|viem|ox|abitype|@noble|@scure|mipd|zustand)[\\/]/;

// React and the router: every page needs them, and they change less often than our code.
const REACT_PACKAGES = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;
const ROUTER_PACKAGES = /[\\/]node_modules[\\/]react-router[\\/]/;

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only what a group's test names goes in it: a group must not drag shared dependencies
          // (React, TanStack Query) along, or every page would load it.
          includeDependenciesRecursively: false,
          groups: [
            { name: 'react', test: REACT_PACKAGES, priority: 20 },
            { name: 'router', test: ROUTER_PACKAGES, priority: 20 },
            { name: 'wallet', test: WALLET_PACKAGES, priority: 10 },
          ],
        },
      },
    },
  },
});
