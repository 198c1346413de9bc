import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How the dev stack, the e2e suite and the chaos suite start the server: the compiled build that
 * production runs (`npm run serve`), rebuilt first when a source is newer (decision 021).
 */
export function compiledServerCommand(): { command: string; args: string[] } {
  const build = spawnSync(process.execPath, [`${SERVER}scripts/build-server.mjs`, '--if-stale'], {
    stdio: 'inherit',
  });
  if (build.status !== 0)
    throw new Error('Compiling the server failed (apps/server/scripts/build-server.mjs)');
  return { command: process.execPath, args: ['--enable-source-maps', `${SERVER}dist/main.js`] };
}
