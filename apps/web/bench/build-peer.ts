import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const PEER_ROOT = fileURLToPath(new URL('./peer/', import.meta.url));

/**
 * Builds the peer page of `npm run bench:web` (bench/peer) into `outDir`. It lives here, not in
 * scripts/, because Vite and its React plugin are this workspace's devDependencies.
 * `configFile: false`: the peer must not pick up apps/web/vite.config.ts (Tailwind, the app's
 * chunk groups), or it would stop being the plain wagmi page it stands for.
 */
export async function buildPeer(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: PEER_ROOT,
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}
