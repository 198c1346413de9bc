import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// `npm run lint`: the server's top-level folders import one way (docs/architecture.md "Rooms and the
// direction rule"). Every relative import of apps/server/src/**/*.ts counts, types and tests beside
// the code included: a type or a test that reaches up ties the folders as surely as a call does. The
// files at the root of src (app.ts, features.ts, app-deps.ts, main.ts) wire the folders together and
// are outside the rule; imports that leave src (a test's support files) are too.

/**
 * The folders, top first. A folder imports its own layer's folders or lower ones, never a higher one;
 * the wiring at the root passes what a lower folder needs from a higher one as a function. Tools use
 * everything; the games and their reads sit on payments intake, which records deposits the escrow
 * room checks, settles and pays through the operator key's sender; the web plumbing, the chain and
 * the database are under all of them.
 */
export const SERVER_LAYERS: readonly (readonly string[])[] = [
  ['ops', 'doctor', 'dev'],
  [
    'markets',
    'oracle',
    'settlement',
    'price-markets',
    'prices',
    'solvency',
    'system',
    'history',
    'leaderboard',
    'operators',
    'evidence',
    'resolution',
    'guardian-watch',
  ],
  ['payments'],
  ['escrow'],
  ['operator-sender'],
  ['realtime'],
  ['http', 'jobs', 'metrics', 'wallet-reads'],
  ['chain', 'db'],
  ['config', 'errors', 'runtime'],
];

/** One import from a file of one top-level folder into another's. */
export type FolderImport = { from: string; to: string; file: string; target: string };

/** Files by their path under src (`escrow/vault-routes.ts`), with their text. */
export type SourceFiles = ReadonlyMap<string, string>;

/** The top-level folder of a path under src; null for the root files and for paths outside src. */
function folderOf(file: string): string | null {
  if (file.startsWith('..') || !file.includes('/')) return null;
  return file.slice(0, file.indexOf('/'));
}

/** Every relative import (static, dynamic, type-only, re-export) that crosses top-level folders. */
export function folderImports(files: SourceFiles): FolderImport[] {
  const found: FolderImport[] = [];
  for (const [file, text] of files) {
    const from = folderOf(file);
    if (from === null) continue;
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), fileName));
      const to = folderOf(target);
      if (to !== null && to !== from) found.push({ from, to, file, target });
    }
  }
  return found;
}

/** What breaks the rule, one line each, naming the files; empty when nothing does. */
export function folderViolations(
  imports: readonly FolderImport[],
  layers: readonly (readonly string[])[] = SERVER_LAYERS,
): string[] {
  const layerOf = new Map(layers.flatMap((folders, at) => folders.map((folder) => [folder, at] as const)));
  const problems: string[] = [];
  const unknown = new Set<string>();
  const edges = new Map<string, FolderImport[]>();
  for (const each of imports) {
    for (const folder of [each.from, each.to]) if (!layerOf.has(folder)) unknown.add(folder);
    const key = `${each.from} -> ${each.to}`;
    edges.set(key, [...(edges.get(key) ?? []), each]);
  }
  for (const folder of [...unknown].sort()) {
    problems.push(`${folder}/ is in no layer: add it to SERVER_LAYERS (scripts/lint-server-folders.ts)`);
  }
  const files = (list: readonly FolderImport[]) =>
    list.map((each) => `${each.file} -> ${each.target}`).join(', ');
  for (const [key, list] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
    const { from, to } = list[0] ?? { from: '', to: '' };
    const back = edges.get(`${to} -> ${from}`);
    if (back && from < to)
      problems.push(`${from}/ and ${to}/ import each other: ${files(list)}; ${files(back)}`);
    const fromLayer = layerOf.get(from);
    const toLayer = layerOf.get(to);
    if (fromLayer !== undefined && toLayer !== undefined && toLayer < fromLayer) {
      problems.push(`${from}/ imports ${to}/, a layer above it (${key}): ${files(list)}`);
    }
  }
  return problems;
}

/** The .ts files under `dir`, by their path under it (`/`-separated). */
export function readSourceFiles(dir: string): SourceFiles {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue;
    files.set(entry.split(path.sep).join('/'), readFileSync(path.join(dir, entry), 'utf8'));
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const src = fileURLToPath(new URL('../apps/server/src', import.meta.url));
  const problems = folderViolations(folderImports(readSourceFiles(src)));
  for (const problem of problems) console.error(`lint-server-folders: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log('lint-server-folders: the server folders import one way');
}
