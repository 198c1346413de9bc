import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

// Decision 033: the embedded PGlite's files belong to one process at a time. The process that opens
// them (the server, or an ops command while no server runs) first takes DATA_DIR/data-folder.lock,
// made with O_EXCL and holding its pid, host and start; it is removed when the process exits. A lock
// whose process is gone (a crash, a kill -9, a container restarted with the same pid) is taken over.

export const LOCK_FILE = 'data-folder.lock';
/** The holder touches its lock this often, so a process on another host can tell a live one. */
const HEARTBEAT_MS = 10_000;
/** A lock from another host not touched this long is its holder's no more. */
const STALE_ELSEWHERE_MS = 3 * HEARTBEAT_MS;
/** A lock file still empty this long was left by a process that died while making it. */
const EMPTY_GRACE_MS = 5_000;

const HolderSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  /** The process's start on its host (Linux: /proc/<pid>/stat), so a reused pid is not taken for it. */
  processStart: z.string().nullable(),
  since: z.string(),
  /** What holds it: `server`, `ops markets:resolve`, … */
  purpose: z.string(),
});
export type DataFolderHolder = z.infer<typeof HolderSchema>;

/** Another live process holds the folder: its pid and what it is, in one sentence. */
export class DataFolderHeldError extends Error {
  override name = 'DataFolderHeldError';
  constructor(
    readonly dataDir: string,
    readonly holder: DataFolderHolder | null,
  ) {
    super(
      holder
        ? `${holder.purpose === 'server' ? 'the server' : `"${holder.purpose}"`} (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since}) holds the data folder ${dataDir}`
        : `another process is taking the data folder ${dataDir}`,
    );
  }
}

export type DataFolderLock = { dataDir: string; release(): void };

/**
 * Takes the data folder for this process, or throws DataFolderHeldError naming the live process
 * that has it. Released by `release()` or when the process exits, however it exits short of a kill.
 */
export function lockDataFolder(dataDir: string, purpose: string): DataFolderLock {
  const path = join(dataDir, LOCK_FILE);
  const me: DataFolderHolder = {
    pid: process.pid,
    host: hostname(),
    processStart: processStart(process.pid),
    since: new Date().toISOString(),
    purpose,
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path, me)) return held(dataDir, path);
    const found = readHolder(path);
    if (found === 'gone') continue;
    if (isLive(found, path)) throw new DataFolderHeldError(dataDir, found === 'empty' ? null : found);
    // Stale: removed only if it is still the very file read (another process may have taken it since).
    if (sameFile(path, found)) unlinkQuietly(path);
  }
  throw new DataFolderHeldError(dataDir, null);
}

/** The live process that holds the folder, or null when none does (a stale lock is not removed). */
export function findDataFolderHolder(dataDir: string): DataFolderHolder | null {
  const path = join(dataDir, LOCK_FILE);
  const found = readHolder(path);
  if (found === 'gone' || !isLive(found, path)) return null;
  return found === 'empty' ? null : found;
}

function create(path: string, me: DataFolderHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(me)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function held(dataDir: string, path: string): DataFolderLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.off('exit', release);
    const found = readHolder(path);
    if (typeof found === 'object' && found.pid === process.pid && found.host === hostname()) {
      unlinkQuietly(path);
    }
  };
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // Removed by hand: nothing to keep alive.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  process.on('exit', release);
  return { dataDir, release };
}

type Read = DataFolderHolder | 'empty' | 'gone';

function readHolder(path: string): Read {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  if (text.trim() === '') return 'empty';
  try {
    return HolderSchema.parse(JSON.parse(text));
  } catch {
    // Not a lock this code wrote: nobody's.
    return { pid: 0, host: '', processStart: null, since: '', purpose: 'unknown' };
  }
}

/** Whether the lock read is its holder's still. */
function isLive(found: DataFolderHolder | 'empty', path: string): boolean {
  const ageMs = (() => {
    try {
      return Date.now() - statSync(path).mtimeMs;
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  })();
  // A process is writing it now, or died making it.
  if (found === 'empty') return ageMs < EMPTY_GRACE_MS;
  if (found.pid <= 0) return false;
  if (found.host !== hostname()) return ageMs < STALE_ELSEWHERE_MS;
  // Ourselves before we took it: a restart that got the pid of the process that left it (a container).
  if (found.pid === process.pid) return false;
  if (!isRunning(found.pid)) return false;
  const start = processStart(found.pid);
  return start === null || found.processStart === null || start === found.processStart;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When `pid` started, in clock ticks since boot (Linux's /proc/<pid>/stat field 22); null elsewhere. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function sameFile(path: string, found: DataFolderHolder | 'empty'): boolean {
  const again = readHolder(path);
  return JSON.stringify(again) === JSON.stringify(found);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
