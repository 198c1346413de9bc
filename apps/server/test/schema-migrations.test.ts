import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

// The migrations are the schema: drizzle-kit, asked to generate a migration from the schema files
// against a copy of drizzle/, finds nothing to do. A schema edit without its migration (or a migration
// edited by hand past its snapshot) fails here, not on a deployment's first start.

const SERVER = fileURLToPath(new URL('../', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'pm-drizzle-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

test('drizzle-kit finds no difference between the schema and the migrations', () => {
  cpSync(join(SERVER, 'drizzle'), join(copy, 'drizzle'), { recursive: true });
  const before = readdirSync(join(copy, 'drizzle')).sort();
  // drizzle-kit reads --out relative to its working directory.
  const out = relative(SERVER, join(copy, 'drizzle'));
  const result = spawnSync(
    'npx',
    ['drizzle-kit', 'generate', '--dialect', 'postgresql', '--schema', './src/db/schema.ts', '--out', out],
    { cwd: SERVER, encoding: 'utf8', timeout: 60_000 },
  );
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout).toContain('No schema changes, nothing to migrate');
  expect(readdirSync(join(copy, 'drizzle')).sort()).toEqual(before);
});
