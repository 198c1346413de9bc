import { readdirSync, readFileSync } from 'node:fs';

// What the bench reads of its processes from /proc (Linux): resident memory and CPU time. Where
// /proc is not readable the figures are undefined and the report says '?'.

/** The largest resident set of `pid` seen while `work` runs (Linux /proc). */
export async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peak = 0;
  const sample = () => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {}
  };
  sample();
  const timer = setInterval(sample, 100);
  try {
    return { value: await work(), peakMb: peak };
  } finally {
    clearInterval(timer);
    sample();
  }
}

/** A process's CPU time so far (user + system) from /proc (Linux), in ms. */
export function cpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** User + system CPU time in a /proc/<pid>/stat line, in ms. */
function statCpuMs(stat: string): number {
  // utime and stime are fields 14 and 15; split after the command name, which may hold spaces.
  const fields = stat.split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ = 100
}

/**
 * The CPU time so far of each PostgreSQL process on this machine, in ms, by pid (Linux /proc). The
 * server's pooled connections live through the run; one that exits during it is not counted.
 */
export function postgresCpuMs(): Map<number, number> | undefined {
  const cpu = new Map<number, number>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (stat.includes(' (postgres) ')) cpu.set(Number(entry), statCpuMs(stat));
      } catch {}
    }
  } catch {}
  return cpu.size > 0 ? cpu : undefined;
}

/** CPU spent between two readings of `postgresCpuMs`, by the processes alive at the second. */
export function postgresCpuSince(before: Map<number, number> | undefined): number | undefined {
  const after = postgresCpuMs();
  if (!before || !after) return undefined;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** The Hardhat node serving `rpcUrl` (its command line names the port), where /proc is readable. */
export function findHardhatPid(rpcUrl: string): number | undefined {
  const port = new URL(rpcUrl).port;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        if (command.some((part) => part.includes('hardhat')) && command.includes(port)) return Number(entry);
      } catch {}
    }
  } catch {}
  return undefined;
}
