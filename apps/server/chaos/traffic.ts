import { MARKET_CATEGORIES } from '@pm/core/constants';
import { encodeIntent, marketContentHash } from '@pm/core/intent';
import { type Hash, type Hex, parseEther, stringToHex } from 'viem';
import { type ApiAnswer, type ApiClient, describeAnswer } from './api-client.ts';
import type { ChainTools } from './chain-tools.ts';
import type { DbReader } from './db-snapshot.ts';
import type { Random } from './prng.ts';
import { sleep } from './server-process.ts';
import type { VaultLedger } from './vault-ledger.ts';

// One round of players: real transfers to the vault with their intents, posted the way browsers
// do (once, twice, never because the tab closed, again after a network error), plus the payments
// an attacker would send: below the minimum, 0 wei, 1 wei to an out-of-range market id, and a
// plain transfer with no intent at all.

export type Tally = Map<string, Map<string, number>>;

export type TrafficDeps = {
  chain: ChainTools;
  api: ApiClient;
  db: DbReader;
  vault: `0x${string}`;
  ledger: VaultLedger;
  random: Random;
  tally: Tally;
  /** The server's CONFIRMATIONS: a reorg mines this many blocks over the reverted payment. */
  confirmations: number;
  /** The attacker's payments (0 wei, 1 wei to an id beyond int4); off for a baseline run. */
  attacks: boolean;
};

type Player = ChainTools['players'][number];
type PostMode = 'once' | 'twice' | 'never' | 'retry';

const SPECIAL_ACTIONS = ['belowMinJoin', 'belowMinOracle', 'poison', 'hugeId', 'plain'] as const;
const ACTIONS = [
  ['join', 35],
  ['oracle', 30],
  ['create', 8],
  ['belowMinJoin', 8],
  ['belowMinOracle', 5],
  ['plain', 6],
  ['poison', 4],
  ['hugeId', 4],
] as const;
type Action = (typeof ACTIONS)[number][0];

function count(tally: Tally, label: string, outcome: string) {
  const row = tally.get(label) ?? new Map<string, number>();
  row.set(outcome, (row.get(outcome) ?? 0) + 1);
  tally.set(label, row);
}

const ipOf = (player: Player) => `10.0.0.${Number.parseInt(player.address.slice(-2), 16)}`;

function pickMode(random: Random): PostMode {
  const roll = random.next();
  return roll < 0.7 ? 'once' : roll < 0.82 ? 'twice' : roll < 0.92 ? 'never' : 'retry';
}

const ATTACKS: ReadonlySet<Action> = new Set(['poison', 'hugeId']);

function pickAction(random: Random, attacks: boolean): Action {
  const actions = ACTIONS.filter(([action]) => attacks || !ATTACKS.has(action));
  const total = actions.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [action, weight] of actions) {
    roll -= weight;
    if (roll < 0) return action;
  }
  return 'join';
}

/** Milli-BNB steps from `min` to `max`, as wei. */
function amount(random: Random, minMilli: number, maxMilli: number, stepMilli = 1): bigint {
  const steps = Math.floor((maxMilli - minMilli) / stepMilli);
  return parseEther(String((minMilli + random.int(0, steps) * stepMilli) / 1000));
}

export function createTraffic(deps: TrafficDeps) {
  const { api, random, tally } = deps;

  async function post(label: string, mode: PostMode, path: string, body: unknown, ip: string) {
    if (mode === 'never') {
      count(tally, label, 'never posted');
      return;
    }
    const send = async () => {
      const answer = await api.post(path, body, ip);
      count(tally, label, describeAnswer(answer));
      return answer;
    };
    if (mode === 'twice') {
      await Promise.all([send(), send()]);
      return;
    }
    const first: ApiAnswer = await send();
    if (mode === 'retry' && (first.status === 0 || first.status >= 500)) {
      await sleep(1000);
      await send();
    }
  }

  async function pay(player: Player, value: bigint, data: Hex | undefined): Promise<Hash | null> {
    try {
      return await player.send(deps.vault, value, data);
    } catch (error) {
      count(
        tally,
        'payment not sent',
        error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
      );
      return null;
    }
  }

  let marketSerial = 0;
  async function create(player: Player, round: number) {
    marketSerial += 1;
    const fields = {
      category: random.pick(MARKET_CATEGORIES),
      duration: 'hourly' as const,
      title: random.chance(0.5) ? `Chaos ${round}.${marketSerial}` : undefined,
      description: `Chaos round ${round}, market ${marketSerial}: will the coin land heads?`,
      resolutionInstructions: undefined,
    };
    const prediction = random.pick(['YES', 'NO'] as const);
    const value = amount(random, 5, 30);
    const hash = await pay(
      player,
      value,
      encodeIntent({ kind: 'create', contentHash: marketContentHash(fields), prediction }),
    );
    if (!hash) return;
    const body = {
      txHash: hash,
      creatorAddress: player.address,
      description: fields.description,
      ...(fields.title ? { title: fields.title } : {}),
      category: fields.category,
      duration: fields.duration,
      prediction,
      amountWei: value.toString(),
    };
    await post('create', pickMode(random), '/api/markets', body, ipOf(player));
  }

  async function join(player: Player, label: string, value: bigint, marketId: number, mode: PostMode) {
    const prediction = random.pick(['YES', 'NO'] as const);
    const hash = await pay(player, value, encodeIntent({ kind: 'bet', marketId, prediction }));
    if (!hash) return;
    const body = { txHash: hash, userAddress: player.address, prediction, amountWei: value.toString() };
    await post(label, mode, `/api/markets/${marketId}/bets`, body, ipOf(player));
  }

  /** Like a user on the oracle page: wait (bounded) for a round open for bets. */
  async function bettableEpoch(): Promise<number> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const live = await deps.db.liveEpoch(await deps.chain.chainNowS(), 3);
      if (live !== null) return live;
      await sleep(500);
    }
    return (await deps.db.upcomingEpoch()) ?? 1;
  }

  async function oracle(player: Player, label: string, value: bigint) {
    const epoch = await bettableEpoch();
    const position = random.pick(['bull', 'bear'] as const);
    const hash = await pay(player, value, encodeIntent({ kind: 'round', epoch, position }));
    if (!hash) return;
    const body = { epoch, position, amountWei: value.toString(), userAddress: player.address, txHash: hash };
    await post(label, pickMode(random), '/api/oracle/bets', body, ipOf(player));
  }

  async function someMarket(): Promise<number | null> {
    const ids = await deps.db.activeMarketIds(await deps.chain.chainNowS());
    return ids.length ? random.pick(ids) : null;
  }

  async function act(player: Player, action: Action, round: number) {
    switch (action) {
      case 'create':
        return create(player, round);
      case 'join': {
        const marketId = await someMarket();
        if (marketId === null) return create(player, round);
        return join(player, 'join', amount(random, 5, 30), marketId, pickMode(random));
      }
      case 'oracle':
        return oracle(player, 'oracle bet', amount(random, 10, 50, 10));
      case 'belowMinJoin':
        return join(player, 'join below minimum', amount(random, 1, 4), (await someMarket()) ?? 1, 'once');
      case 'belowMinOracle':
        return oracle(player, 'oracle bet below minimum', parseEther('0.005'));
      case 'poison':
        // F1: a 0-wei payment with a valid intent, posted with amountWei "0".
        return join(player, 'poison 0 wei', 0n, (await someMarket()) ?? 1, 'once');
      case 'hugeId': {
        // F2: 1 wei to a market id beyond int4; nobody posts it, reconciliation finds it.
        const hash = await pay(player, 1n, stringToHex('pm1:bet:3000000000:YES'));
        count(tally, '1 wei to pm1:bet:3000000000:YES', hash ? 'sent, never posted' : 'not sent');
        return;
      }
      case 'plain': {
        const hash = await pay(player, amount(random, 1, 5), undefined);
        count(tally, 'plain transfer, no intent', hash ? 'sent' : 'not sent');
        return;
      }
    }
  }

  return {
    /** One round of traffic: a few creates first (so there is something to join), then everyone at once. */
    async run(round: number, options: { everySpecial: boolean }) {
      const players = deps.chain.players;
      const creators = players.slice(0, random.int(1, 2));
      await Promise.all(creators.map((player) => create(player, round)));
      const plans = players.map(() =>
        Array.from({ length: random.int(4, 7) }, () => pickAction(random, deps.attacks)),
      );
      if (options.everySpecial) {
        const specials = SPECIAL_ACTIONS.filter((action) => deps.attacks || !ATTACKS.has(action));
        for (const [index, action] of specials.entries()) plans[index % plans.length]?.push(action);
      }
      await Promise.all(
        players.map(async (player, index) => {
          for (const action of plans[index] ?? []) {
            await sleep(random.int(200, 1500));
            await act(player, action, round);
          }
        }),
      );
    },

    /**
     * A reorg around a payment (F7): snapshot, pay and post a bet, let the server read the
     * receipt, then revert the chain and mine empty blocks over it so the height looks final.
     * The payment is gone from the canonical chain; the server must not keep a bet for it.
     */
    async reorgBet(): Promise<string> {
      const marketId = await someMarket();
      const epoch = marketId === null ? await bettableEpoch() : null;
      const player = random.pick(deps.chain.players);
      const waitMs = random.int(300, 1500);
      // A market bet when one is open, else an oracle bet: the same verification path either way.
      const bet =
        marketId !== null
          ? (() => {
              const value = amount(random, 5, 30);
              const prediction = random.pick(['YES', 'NO'] as const);
              return {
                value,
                data: encodeIntent({ kind: 'bet', marketId, prediction }),
                path: `/api/markets/${marketId}/bets`,
                body: (txHash: Hash) => ({
                  txHash,
                  userAddress: player.address,
                  prediction,
                  amountWei: value.toString(),
                }),
              };
            })()
          : (() => {
              const value = amount(random, 10, 50, 10);
              const position = random.pick(['bull', 'bear'] as const);
              const round = epoch ?? 1;
              return {
                value,
                data: encodeIntent({ kind: 'round', epoch: round, position }),
                path: '/api/oracle/bets',
                body: (txHash: Hash) => ({
                  epoch: round,
                  position,
                  amountWei: value.toString(),
                  userAddress: player.address,
                  txHash,
                }),
              };
            })();
      return deps.chain.lock.exclusive(async () => {
        const before = await deps.chain.publicClient.getBlockNumber({ cacheTime: 0 });
        const snapshot = await deps.chain.rpc('evm_snapshot');
        // Nothing else may be mined over the payment before the revert: the server's own payouts
        // would otherwise add blocks, make the payment final (CONFIRMATIONS) and turn this into a
        // reorg deeper than finality, which no chain with finality does. So automine is off before
        // the payment is sent (turning it off after left a gap in which a payout could be mined
        // over it) and the payment's block is mined by hand; other sends wait in the mempool.
        await deps.chain.rpc('evm_setAutomine', [false]);
        let hash: Hash | null = null;
        try {
          hash = await player.sendUnlocked(deps.vault, bet.value, bet.data).catch(() => null);
          await deps.chain.rpc('evm_mine');
          // Not awaited here: the server answers once the height looks final, after the revert.
          if (hash) {
            const paid = hash;
            void api.post(bet.path, bet.body(paid), ipOf(player)).then((answer) => {
              count(tally, 'reorged payment', describeAnswer(answer));
            });
          }
          await sleep(waitMs);
          await deps.chain.rpc('evm_revert', [snapshot]);
        } finally {
          await deps.chain.rpc('evm_setAutomine', [true]);
        }
        for (let i = 0; i < deps.confirmations + 1; i++) await deps.chain.rpc('evm_mine');
        deps.ledger.forgetFrom(before + 1n);
        return `${marketId !== null ? 'market' : 'oracle'} payment ${hash} reverted after ${waitMs} ms`;
      });
    },
  };
}

export type Traffic = ReturnType<typeof createTraffic>;
