import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderHeldError, findDataFolderHolder, LOCK_FILE, lockDataFolder } from './data-folder-lock.ts';

// Decision 033: the data folder's lock, held by a real other process, and the stale ones a crash leaves.

const MODULE = fileURLToPath(new URL('./data-folder-lock.ts', import.meta.url));
const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Another process that takes the folder, says so, and holds it until killed. */
async function holder(dir: string) {
  const script = `import { lockDataFolder } from ${JSON.stringify(MODULE)};
lockDataFolder(${JSON.stringify(dir)}, 'server');
process.stdout.write('held\\n');
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout, 'data');
  return child;
}

describe('the data folder lock', () => {
  it('is refused while another live process holds it, and taken once that process is killed', async () => {
    const dir = folder();
    const child = await holder(dir);
    try {
      expect(() => lockDataFolder(dir, 'ops markets:resolve')).toThrow(DataFolderHeldError);
      expect(() => lockDataFolder(dir, 'ops markets:resolve')).toThrow(
        new RegExp(`^the server \\(pid ${child.pid}, since .+\\) holds the data folder ${dir}$`),
      );
      expect(findDataFolderHolder(dir)).toMatchObject({ pid: child.pid, purpose: 'server' });
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    // A kill -9 leaves the file: its process is gone, so it is stale.
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    expect(findDataFolderHolder(dir)).toBeNull();
    const lock = lockDataFolder(dir, 'ops markets:resolve');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      purpose: 'ops markets:resolve',
    });
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('is given back when its process exits', () => {
    const dir = folder();
    const script = `import { lockDataFolder } from ${JSON.stringify(MODULE)}; lockDataFolder(${JSON.stringify(dir)}, 'server');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    expect(run.status, run.stderr.toString()).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("takes over a lock naming this process's own pid (a restart that got the pid back) or a dead one", () => {
    for (const pid of [process.pid, 2 ** 22 + 1]) {
      const dir = folder();
      const stale = {
        pid,
        host: hostname(),
        processStart: null,
        since: '2020-01-01T00:00:00.000Z',
        purpose: 'server',
      };
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify(stale));
      const lock = lockDataFolder(dir, 'server');
      expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).since).not.toBe(stale.since);
      lock.release();
    }
  });

  it('leaves a lock being written alone, and takes one left empty long ago', () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), '');
    expect(() => lockDataFolder(dir, 'server')).toThrow(/another process is taking the data folder/);
    const old = new Date(Date.now() - 60_000);
    spawnSync('touch', ['-d', old.toISOString(), join(dir, LOCK_FILE)]);
    lockDataFolder(dir, 'server').release();
  });
});
