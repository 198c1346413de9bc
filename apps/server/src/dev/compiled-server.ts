import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../runtime/node-flags.ts';

const SERVER = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How the dev stack, the e2e suite and the chaos suite start the server (`main`), and tests the ops
 * CLI (`ops`): the compiled build that production runs (`npm run serve`, `npm run ops`), with the
 * same Node flags (decision 023), rebuilt first when a source is newer (decision 021).
 */
export function compiledServerCommand(entry: 'main' | 'ops' = 'main'): { command: string; args: string[] } {
  const build = spawnSync(process.execPath, [`${SERVER}scripts/build-server.mjs`, '--if-stale'], {
    stdio: 'inherit',
  });
  if (build.status !== 0)
    throw new Error('Compiling the server failed (apps/server/scripts/build-server.mjs)');
  return {
    command: process.execPath,
    args: ['--import', `${SERVER}dist/source-maps.js`, ...NODE_FLAGS, `${SERVER}dist/${entry}.js`],
  };
}
