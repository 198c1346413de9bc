import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { NODE_FLAGS } from '../runtime/node-flags.ts';

// PGlite creates a new data directory by running initdb in a second PGlite instance and copying its
// files over: that briefly holds two PostgreSQL heaps in WebAssembly and leaves ~70 MB this process
// never gets back (WebAssembly memory and V8's code space are not returned to the system). Done in a
// short-lived child process instead, the server only ever opens an existing directory, so its first
// start holds what every later start does (docs/decisions/023).

// CommonJS so that `require` finds PGlite's own CommonJS build at the path the parent resolved.
const CHILD = `
const { PGlite } = require(process.env.PM_PGLITE_MODULE);
PGlite.create(process.env.PM_PGLITE_DIR, JSON.parse(process.env.PM_PGLITE_OPTIONS))
  .then((db) => db.close())
  .catch((error) => { console.error(error); process.exit(1); });
`;

/** Creates PGlite's data directory `dataDir` (unless it holds one) with `options`, in a child process. */
export async function initPgliteDataDir(dataDir: string, options: { startParams: string[] }): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const module = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [...NODE_FLAGS, '--input-type=commonjs', '-e', CHILD],
      {
        env: {
          ...process.env,
          PM_PGLITE_MODULE: module,
          PM_PGLITE_DIR: dataDir,
          PM_PGLITE_OPTIONS: JSON.stringify(options),
        },
      },
      (error, _stdout, stderr) =>
        error
          ? reject(new Error(`Creating the PGlite database in ${dataDir} failed: ${stderr || error.message}`))
          : resolve(),
    );
  });
}
