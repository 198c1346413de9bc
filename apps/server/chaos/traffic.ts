import { MARKET_CATEGORIES } from '@pm/core/constants';
import { creationCloseAt } from '@pm/core/market-rules';
import { newMarketId } from '@pm/escrow/deposit-terms';
import type { ApiRequest } from '@pm/pay-and-post/api-transport';
import { payForBet, postBet } from '@pm/pay-and-post/pay-and-post-bet';
import { payForMarket, placeMarketOrder, postMarket } from '@pm/pay-and-post/pay-and-post-market';
import { payForOracleBet, postOracleBet } from '@pm/pay-and-post/pay-and-post-oracle-bet';
import { payPlainTransfer } from '@pm/pay-and-post/pay-plain-transfer';
import type { Payer } from '@pm/pay-and-post/payer';
import { type Hash, parseEther, stringToHex } from 'viem';
import { type ApiAnswer, type ApiClient, describeAnswer } from './api-client.ts';
import type { ChainTools } from './chain-tools.ts';
import type { BettableMarket, BettableRound, DbReader } from './db-snapshot.ts';
import type { OperatorLedger } from './operator-ledger.ts';
import type { Random } from './prng.ts';
import { sleep } from './server-process.ts';

// One round of players: real deposits into the escrow (market creations and bets, oracle rounds:
// decision 026) and the attacker's plain transfers to the escrow (refused: it takes typed deposits only), through the shared driver (@pm/pay-and-post),
// posted the way browsers do (once, twice, never because the tab closed, again after a network
// error), plus the payments an attacker would send: below the minimum, 0 wei, 1 wei to an
// out-of-range market id, and a plain transfer with no intent at all.

export type Tally = Map<string, Map<string, number>>;

export type TrafficDeps = {
  chain: ChainTools;
  api: ApiClient;
  db: DbReader;
  /** The escrow every stake is deposited into (decision 026). */
  escrow: `0x${string}`;
  ledger: OperatorLedger;
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

  /** The API as this player's browser reaches it (the rate limit keys on its address). */
  const apiOf =
    (player: Player) =>
    ({ path, body }: ApiRequest) =>
      api.post(path, body, ipOf(player));

  /** Posts a paid request the way `mode` says; `postOnce` sends it one time. */
  async function post(label: string, mode: PostMode, postOnce: () => Promise<{ response: ApiAnswer }>) {
    if (mode === 'never') {
      count(tally, label, 'never posted');
      return;
    }
    const send = async () => {
      const { response: answer } = await postOnce();
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

  /** The hash of a payment sent, or null (tallied) when the node refused to send it. */
  async function paid(payment: Promise<Hash>): Promise<Hash | null> {
    try {
      return await payment;
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
    // The random draws in the order of earlier runs, so a seed replays the same traffic.
    const category = random.pick(MARKET_CATEGORIES);
    const title = random.chance(0.5) ? `Chaos ${round}.${marketSerial}` : undefined;
    const order = {
      terms: {
        category,
        duration: 'hourly' as const,
        ...(title ? { title } : {}),
        description: `Chaos round ${round}, market ${marketSerial}: will the coin land heads?`,
      },
      prediction: random.pick(['YES', 'NO'] as const),
      amountWei: amount(random, 5, 30),
    };
    // The close the server counts from the deposit's block: the chain's time + the duration.
    const closesAt = creationCloseAt('hourly', await deps.chain.chainNowS());
    const placed = await placeMarketOrder(player, { ...order, closesAt });
    const txHash = await paid(payForMarket(player, deps.escrow, placed));
    if (!txHash) return;
    await post('create', pickMode(random), () =>
      postMarket(apiOf(player), { ...placed, creatorAddress: player.address, txHash }),
    );
  }

  async function join(
    player: Player,
    label: string,
    amountWei: bigint,
    market: BettableMarket,
    mode: PostMode,
  ) {
    const bet = { ...market, prediction: random.pick(['YES', 'NO'] as const), amountWei };
    const txHash = await paid(payForBet(player, deps.escrow, bet));
    if (!txHash) return;
    await post(label, mode, () => postBet(apiOf(player), { ...bet, userAddress: player.address, txHash }));
  }

  /** Like a user on the oracle page: wait (bounded) for a round open for bets. */
  async function bettableRound(): Promise<BettableRound> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const live = await deps.db.liveEpoch(await deps.chain.chainNowS(), 3);
      if (live !== null) return live;
      await sleep(500);
    }
    // None open: a round that has not started (refused and refunded), or a made-up one a minute on.
    return (
      (await deps.db.upcomingEpoch()) ?? { epoch: 1, lockTime: Math.floor(await deps.chain.chainNowS()) + 60 }
    );
  }

  async function oracle(player: Player, label: string, amountWei: bigint) {
    const bet = { ...(await bettableRound()), position: random.pick(['bull', 'bear'] as const), amountWei };
    const txHash = await paid(payForOracleBet(player, deps.escrow, bet));
    if (!txHash) return;
    await post(label, pickMode(random), () =>
      postOracleBet(apiOf(player), { ...bet, userAddress: player.address, txHash }),
    );
  }

  async function someMarket(): Promise<BettableMarket | null> {
    const open = await deps.db.activeMarkets(await deps.chain.chainNowS());
    return open.length ? random.pick(open) : null;
  }

  /** An open market, or a made-up one (an unknown key: refused and given back by reconciliation). */
  async function anyMarket(): Promise<BettableMarket> {
    return (
      (await someMarket()) ?? {
        marketId: 1,
        escrowId: newMarketId(),
        closesAt: Math.floor(await deps.chain.chainNowS()) + 600,
      }
    );
  }

  async function act(player: Player, action: Action, round: number) {
    switch (action) {
      case 'create':
        return create(player, round);
      case 'join': {
        const market = await someMarket();
        if (market === null) return create(player, round);
        return join(player, 'join', amount(random, 5, 30), market, pickMode(random));
      }
      case 'oracle':
        return oracle(player, 'oracle bet', amount(random, 10, 50, 10));
      case 'belowMinJoin':
        return join(player, 'join below minimum', amount(random, 1, 4), await anyMarket(), 'once');
      case 'belowMinOracle':
        return oracle(player, 'oracle bet below minimum', parseEther('0.005'));
      case 'poison':
        // A poison value: a 0-wei payment with a valid intent, posted with amountWei "0".
        return join(player, 'poison 0 wei', 0n, await anyMarket(), 'once');
      case 'hugeId': {
        // 1 wei naming a market id beyond int4, as a plain transfer to the escrow: the contract
        // takes typed deposits only (docs/decisions/026), so it reverts and nothing arrives without an owner.
        const data = stringToHex('pm1:bet:3000000000:YES');
        const hash = await paid(
          payPlainTransfer(player, { to: deps.escrow, intent: null, amountWei: 1n }, { data }),
        );
        count(
          tally,
          '1 wei to the escrow with pm1:bet:3000000000:YES',
          hash ? 'sent (the escrow took it!)' : 'refused',
        );
        return;
      }
      case 'plain': {
        const hash = await paid(
          payPlainTransfer(player, { to: deps.escrow, intent: null, amountWei: amount(random, 1, 5) }),
        );
        count(tally, 'plain transfer to the escrow', hash ? 'sent (the escrow took it!)' : 'refused');
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
     * A reorg around a payment: snapshot, pay and post a bet, let the server read the
     * receipt, then revert the chain and mine empty blocks over it so the height looks final.
     * The payment is gone from the canonical chain; the server must not keep a bet for it.
     */
    async reorgBet(): Promise<string> {
      const market = await someMarket();
      const round = market === null ? await bettableRound() : null;
      const player = random.pick(deps.chain.players);
      const waitMs = random.int(300, 1500);
      // A market bet when one is open, else an oracle bet: the same verification path either way.
      const bet: {
        pay: (payer: Payer) => Promise<Hash>;
        post: (txHash: Hash) => Promise<{ response: ApiAnswer }>;
      } =
        market !== null
          ? (() => {
              const amountWei = amount(random, 5, 30);
              const order = { ...market, prediction: random.pick(['YES', 'NO'] as const), amountWei };
              return {
                pay: (payer) => payForBet(payer, deps.escrow, order),
                post: (txHash) => postBet(apiOf(player), { ...order, userAddress: player.address, txHash }),
              };
            })()
          : (() => {
              const amountWei = amount(random, 10, 50, 10);
              const order = {
                epoch: round?.epoch ?? 1,
                lockTime: round?.lockTime ?? 0,
                position: random.pick(['bull', 'bear'] as const),
                amountWei,
              };
              return {
                pay: (payer) => payForOracleBet(payer, deps.escrow, order),
                post: (txHash) =>
                  postOracleBet(apiOf(player), { ...order, userAddress: player.address, txHash }),
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
          hash = await bet.pay(player.unlocked).catch(() => null);
          await deps.chain.rpc('evm_mine');
          // Not awaited here: the server answers once the height looks final, after the revert.
          if (hash) {
            const paid = hash;
            void bet.post(paid).then(({ response }) => {
              count(tally, 'reorged payment', describeAnswer(response));
            });
          }
          await sleep(waitMs);
          await deps.chain.rpc('evm_revert', [snapshot]);
        } finally {
          await deps.chain.rpc('evm_setAutomine', [true]);
        }
        for (let i = 0; i < deps.confirmations + 1; i++) await deps.chain.rpc('evm_mine');
        deps.ledger.forgetFrom(before + 1n);
        return `${market !== null ? 'market' : 'oracle'} payment ${hash} reverted after ${waitMs} ms`;
      });
    },
  };
}

export type Traffic = ReturnType<typeof createTraffic>;
