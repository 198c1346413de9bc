import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from './node-flags.ts';

const scripts = (path: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')).scripts;

describe('the Node flags of the compiled server', () => {
  it('are the ones `npm run serve` (and so the Dockerfile) passes', () => {
    expect(scripts('../../../../package.json').serve).toBe(
      `node --import ./apps/server/dist/source-maps.js ${NODE_FLAGS.join(' ')} apps/server/dist/main.js`,
    );
  });

  it('are the ones `npm run ops` passes', () => {
    expect(scripts('../../package.json').ops).toBe(
      `node scripts/build-server.mjs --if-stale && node --import ./dist/source-maps.js ${NODE_FLAGS.join(' ')} dist/ops.js`,
    );
  });

  it('are flags this Node accepts', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [...NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
