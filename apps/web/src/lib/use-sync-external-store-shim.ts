// React 19 has useSyncExternalStore built in: the `use-sync-external-store/shim` that wouter and
// wagmi import for React 17 is aliased here (vite.config.ts), so its fallback code is not shipped.
export { useSyncExternalStore } from 'react';
