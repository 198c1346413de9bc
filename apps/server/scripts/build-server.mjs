// @ts-check
// Compiles the server and the ops CLI to JavaScript under apps/server/dist (decision 021):
//   dist/main.js  the server (`npm run serve`, `npm start`, the e2e and chaos stacks)
//   dist/ops.js   the ops CLI (`npm run ops -- <command>`)
//   dist/source-maps.js  preloaded by both (`--import`): source maps for our code only (decision 023)
//   dist/page-worker.js  the evidence page reader's thread, found beside main.js (decision 027)
// with source maps. esbuild bundles our own code (the server, @pm/core and @pm/escrow) and drizzle-orm into one
// file per entry; every other npm package stays an import, resolved from node_modules at run time,
// so the build needs nothing at run time that `npm ci --omit=dev` does not install.
//
// drizzle-orm is bundled for memory (decision 023): its ESM build is ~70 small modules under one
// 179 kB package.json, and Node 24 parses that package.json's `exports` again for each of them at
// start, ~130 MB of garbage that leaves the heap at ~200 MB where its live set is ~55 MB.
//
// Plain JavaScript on purpose: `--if-stale` must run where dev dependencies are absent (a
// production install), and there it builds nothing when dist/ is newer than every source file, or
// when there are no sources (a container image holds dist/ only).
//
//   node scripts/build-server.mjs              build now
//   node scripts/build-server.mjs --if-stale   build only when a source is newer than dist/

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('..', import.meta.url));
const CORE = join(SERVER, '../../packages/core');
const ESCROW = join(SERVER, '../../packages/escrow');
const DIST = join(SERVER, 'dist');
const ENTRIES = {
  main: 'src/main.ts',
  ops: 'src/ops/cli.ts',
  'source-maps': 'src/runtime/source-maps.ts',
  'page-worker': 'src/evidence/page-worker.ts',
};
/** What the build reads: a change to any of these makes dist/ stale. */
const SOURCES = [
  fileURLToPath(import.meta.url),
  join(SERVER, 'src'),
  join(CORE, 'src'),
  join(ESCROW, 'src'),
  join(SERVER, 'package.json'),
  join(CORE, 'package.json'),
  join(ESCROW, 'package.json'),
];

/** @param {string} path @returns {number} the newest modification time under path (0 when absent) */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** @returns {boolean} dist/ holds every entry and no source is newer than the oldest of them */
export function isBuildFresh() {
  const outputs = Object.keys(ENTRIES).map((name) => join(DIST, `${name}.js`));
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return SOURCES.every((source) => newestMtime(source) <= built);
}

/** Bare imports that are bundled in: our own workspace package, and drizzle-orm (see above). */
const BUNDLED = /^(@pm\/|drizzle-orm(\/|$))/;

/** Bare imports are npm packages and stay imports, but for those of BUNDLED. */
const externalPackages = {
  name: 'external-packages',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

export async function buildServer() {
  /** @type {typeof import('esbuild')} */
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      'apps/server/dist is missing or older than the sources, and esbuild (a dev dependency) is not ' +
        'installed here: run `npm run build` where dev dependencies are installed.',
    );
  }
  const { engines } = JSON.parse(readFileSync(join(SERVER, '../../package.json'), 'utf8'));
  const started = Date.now();
  await esbuild.build({
    absWorkingDir: SERVER,
    entryPoints: ENTRIES,
    outdir: DIST,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${String(engines.node).replace(/[^\d.]/g, '')}`,
    sourcemap: true,
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  return Date.now() - started;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifStale = process.argv.includes('--if-stale');
  const hasSources = existsSync(join(SERVER, 'src'));
  if (ifStale && (!hasSources || isBuildFresh())) process.exit(0);
  try {
    const ms = await buildServer();
    process.stdout.write(`Compiled the server to apps/server/dist in ${ms} ms\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
