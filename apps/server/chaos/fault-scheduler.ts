import type { PgFaultProxy } from './pg-fault-proxy.ts';
import type { Random } from './prng.ts';
import { RPC_FAULT_KINDS, type RpcFaultProxy } from './rpc-fault-proxy.ts';
import { type ServerProcess, sleep } from './server-process.ts';

// Faults at random moments while players pay, markets settle and winners claim: one at a time,
// each lasting a second or a few. Every kind comes at least once early in a run (so the short
// run in `npm test` sees them all), then they are drawn at random from the seed.

const FAULT_KINDS = [
  'kill -9',
  ...RPC_FAULT_KINDS.map((kind) => `rpc ${kind}` as const),
  'postgres outage',
  'reorg',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** `--faults kill,rpc,postgres,reorg` (or `all`, or `none`): which kinds a run injects. */
export function parseFaultKinds(text: string): FaultKind[] {
  if (text === 'all') return [...FAULT_KINDS];
  if (text === 'none') return [];
  const wanted = text.split(',').map((part) => part.trim());
  const kinds = FAULT_KINDS.filter((kind) =>
    wanted.some(
      (part) =>
        kind === part ||
        kind.startsWith(`${part} `) ||
        (part === 'kill' && kind === 'kill -9') ||
        (part === 'postgres' && kind === 'postgres outage'),
    ),
  );
  if (kinds.length === 0) throw new Error(`--faults ${text}: none of ${FAULT_KINDS.join(', ')}`);
  return kinds;
}

export type FaultLog = { at: string; round: number; kind: FaultKind; detail: string };

export function createFaultScheduler(deps: {
  random: Random;
  server: ServerProcess;
  rpc: RpcFaultProxy;
  pg: PgFaultProxy;
  reorg: () => Promise<string>;
  log: (line: string) => void;
  /** The kinds to inject (all by default; none for a baseline run). */
  kinds: readonly FaultKind[];
}) {
  const { random } = deps;
  const injected = new Map<FaultKind, number>(FAULT_KINDS.map((kind) => [kind, 0]));
  const history: FaultLog[] = [];
  const notYet = new Set<FaultKind>(deps.kinds);
  let running: Promise<void> | null = null;
  let stopping = false;
  const harnessErrors: string[] = [];

  async function inject(kind: FaultKind, round: number): Promise<void> {
    let detail = '';
    if (kind === 'kill -9') {
      await deps.server.crash();
      const downMs = random.int(200, 2000);
      await sleep(downMs);
      await deps.server.start();
      detail = `down ${downMs} ms`;
    } else if (kind === 'postgres outage') {
      const ms = random.int(1500, 5000);
      deps.pg.outage(ms);
      await sleep(ms);
      detail = `${ms} ms`;
    } else if (kind === 'reorg') {
      detail = await deps.reorg();
    } else {
      const rpcKind = RPC_FAULT_KINDS.find((each) => `rpc ${each}` === kind);
      if (!rpcKind) throw new Error(`unknown fault ${kind}`);
      const probability = random.int(30, 90) / 100;
      const ms = random.int(1000, 5000);
      deps.rpc.set({ kind: rpcKind, probability });
      await sleep(ms);
      deps.rpc.set(null);
      detail = `${ms} ms at p=${probability}`;
    }
    injected.set(kind, (injected.get(kind) ?? 0) + 1);
    history.push({ at: new Date().toISOString(), round, kind, detail });
    deps.log(`  fault: ${kind} (${detail})`);
  }

  function next(): FaultKind {
    if (notYet.size) {
      const kind = random.pick([...notYet]);
      notYet.delete(kind);
      return kind;
    }
    return random.pick(deps.kinds);
  }

  return {
    injected,
    history,
    harnessErrors,
    /** Injects faults until `stop`: a pause of 0.5–3 s, then one fault. */
    start(round: number) {
      stopping = false;
      if (deps.kinds.length === 0) return;
      running = (async () => {
        while (!stopping) {
          await sleep(random.int(500, 3000));
          if (stopping) break;
          const kind = next();
          await inject(kind, round).catch((error: unknown) => {
            // The harness's own trouble (the server would not come back…): said, and the run goes on.
            harnessErrors.push(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
            deps.log(`  fault ${kind} could not be injected: ${String(error)}`);
          });
        }
      })();
    },
    /** Waits for the fault in progress to end, then leaves everything healthy. */
    async stop(): Promise<void> {
      stopping = true;
      await running;
      running = null;
      deps.rpc.set(null);
      if (!deps.server.isRunning()) await deps.server.start();
    },
  };
}

export type FaultScheduler = ReturnType<typeof createFaultScheduler>;
