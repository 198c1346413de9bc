import { z } from 'zod';
import type { ApiClient } from './api-client.ts';
import type { ChainTools } from './chain-tools.ts';
import type { DbReader } from './db-snapshot.ts';
import { expectedMarketPayouts, expectedRoundPayouts } from './expected-payouts.ts';
import { sleep } from './server-process.ts';

// After the faults stop: let the jobs finish what they owe (bounded), and claim every win the way
// a user would keep clicking "claim". Chain time is nudged forward while something waits, since
// leases and retry backoffs are measured on the server's (chain) clock.

const ClaimableSchema = z.object({
  markets: z.object({ totalWei: z.string() }),
  oracle: z.object({ totalWei: z.string() }),
});

export type QuiesceResult = {
  quiet: boolean;
  stalled: boolean;
  waitedMs: number;
  waitingFor: string[];
  /**
   * The final head when nothing but the chain scans' cursors was pending: everything the round paid
   * is at or below it, so quiet means both cursors reached it (blocks keep coming after, empty of
   * payments, and a 5 s job never keeps a cursor within a block of a head mined every second).
   */
  scanTarget: bigint | null;
};

/** Nothing changed in what is pending for this long: it is stuck, not slow. */
const STALL_MS = 20_000;

export async function quiesce(deps: {
  db: DbReader;
  chain: ChainTools;
  api: ApiClient;
  confirmations: number;
  timeoutMs: number;
}): Promise<QuiesceResult> {
  const started = Date.now();
  let waitingFor: string[] = [];
  let lastNudge = Date.now();
  let progress = '';
  let progressAt = Date.now();
  const scan: { target: bigint | null } = { target: null };
  while (Date.now() - started < deps.timeoutMs) {
    await claimEverything(deps);
    const pending = await whatIsPending(deps, scan);
    waitingFor = pending.map((item) => item.text);
    if (waitingFor.length === 0)
      return {
        quiet: true,
        stalled: false,
        waitedMs: Date.now() - started,
        waitingFor,
        scanTarget: scan.target,
      };
    const signature = pending.map((item) => item.signature).join('|');
    if (signature !== progress) {
      progress = signature;
      progressAt = Date.now();
    } else if (Date.now() - progressAt > STALL_MS) {
      return { quiet: false, stalled: true, waitedMs: Date.now() - started, waitingFor, scanTarget: null };
    }
    if (Date.now() - lastNudge > 2000) {
      lastNudge = Date.now();
      await deps.chain.advanceTime(30);
    }
    await sleep(1000);
  }
  return { quiet: false, stalled: false, waitedMs: Date.now() - started, waitingFor, scanTarget: null };
}

/** Every player claims whatever the server says is claimable. */
async function claimEverything(deps: { chain: ChainTools; api: ApiClient }): Promise<void> {
  await Promise.all(
    deps.chain.players.map(async (player) => {
      const ip = '10.0.1.1';
      const answer = await deps.api.get(`/api/users/${player.address}/claimable`, ip);
      const claimable = ClaimableSchema.safeParse(answer.body);
      if (!claimable.success) return;
      if (BigInt(claimable.data.markets.totalWei) + BigInt(claimable.data.oracle.totalWei) === 0n) return;
      await deps.api.post('/api/claims', { userAddress: player.address, scope: 'all' }, ip);
    }),
  );
}

async function whatIsPending(
  deps: { db: DbReader; chain: ChainTools; confirmations: number },
  scan: { target: bigint | null },
): Promise<Array<{ text: string; signature: string }>> {
  const snapshot = await deps.db.snapshot();
  const head = await deps.chain.publicClient.getBlockNumber({ cacheTime: 0 });
  const nowS = await deps.chain.chainNowS();
  const pending: Array<{ text: string; signature: string }> = [];
  const add = (what: string, n: number) => {
    if (n > 0) pending.push({ text: `${n} ${what}`, signature: `${n} ${what}` });
  };
  add('open payment requests', snapshot.requests.filter((r) => r.resolved_at === null).length);
  const finalHead = head - BigInt(deps.confirmations - 1);
  const owedMarket = expectedMarketPayouts(snapshot);
  const owedRound = expectedRoundPayouts(snapshot);
  // `claimed` says a bet's stake was paid by the escrow.
  add(
    'unclaimed market wins',
    snapshot.bets.filter((b) => b.status !== 'claimed' && (owedMarket.get(b.id) ?? 0n) > 0n).length,
  );
  add(
    'unclaimed round wins',
    snapshot.oracleBets.filter((b) => !b.claimed && (owedRound.get(b.id) ?? 0n) > 0n).length,
  );
  // The escrow's side: the operator key's actions, relays, settlements, deposits and their refunds.
  add(
    'operator transactions not final',
    snapshot.operatorTxs.filter((t) => ['queued', 'signed', 'sent'].includes(t.status)).length,
  );
  add('escrow relays open', snapshot.relays.filter((r) => r.status === 'open').length);
  add('escrow settlements not final', snapshot.payoutLists.filter((l) => l.status !== 'settled').length);
  add('escrow deposits unresolved', snapshot.escrowDeposits.filter((d) => d.resolved_at === null).length);
  add(
    'refused deposits not given back',
    snapshot.escrowRefunds.filter((r) => r.status === 'queued' || r.status === 'refunding').length,
  );
  add(
    'markets past deadline',
    snapshot.markets.filter((m) => m.status !== 'settled' && m.deadline.getTime() / 1000 < nowS).length,
  );
  add(
    'rounds past close',
    snapshot.rounds.filter((r) => r.status !== 'ended' && r.close_time.getTime() / 1000 < nowS - 5).length,
  );
  // The chain scans (the escrow's payouts, its deposits) must reach the final head of the
  // moment nothing else was pending (scanTarget above).
  if (pending.length > 0) scan.target = null;
  else scan.target ??= finalHead;
  const target = scan.target ?? finalHead - 1n;
  for (const [name, cursor] of [
    ['escrow payouts watch', snapshot.payoutsCursor],
    ['escrow deposit scan', snapshot.escrowCursor],
  ] as const)
    if (cursor === null || cursor < target)
      pending.push({
        text: `${name} at block ${cursor}, waiting for ${target}`,
        signature: `${name} ${cursor}`,
      });
  return pending;
}
