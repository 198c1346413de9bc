import { parseEther, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { marketEscrowAbi } from '../src/market-escrow.gen.ts';
import {
  BETTORS,
  BNB,
  createMarketEscrowWorld,
  type MarketEscrowWorld,
  NO,
  STRANGER,
  type StakeRef,
  TREASURY,
  YES,
} from './market-escrow-world.ts';

// PancakeSwap Prediction V2's own reward scenarios (pancakeswap/pancake-smart-contracts,
// projects/predictions/v2/test/prediction.test.ts: "Should claim rewards", "Should multi claim
// rewards", "Should claim treasury rewards"), replayed through MarketEscrow's rounds at Pancake's own
// 10 % fee: each winner's claim pays, to the wei, what Pancake's test expects, and the treasury gets
// Pancake's treasury amount plus the rounding dust, which Pancake leaves in its contract for good.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld({ roundFeeBps: 1000 });
});
afterAll(() => world?.stop());

const [bullUser1, bullUser2, bearUser1] = BETTORS;
const usd = (dollars: number) => BigInt(dollars) * 100_000_000n;

type Scenario = {
  name: string;
  bull1: string;
  bull2: string;
  bear1: string;
  lock: number;
  close: number;
  /** What Pancake's test expects each winner's claim to pay, in BNB. */
  expected: Array<[number, string]>;
  /** Pancake's treasuryAmount for the round. */
  treasury: string;
};

const SCENARIOS: Scenario[] = [
  {
    name: 'bull wins, 1 + 2 against 4: 2.1 and 4.2',
    bull1: '1',
    bull2: '2',
    bear1: '4',
    lock: 120,
    close: 130,
    expected: [
      [bullUser1, '2.1'],
      [bullUser2, '4.2'],
    ],
    treasury: '0.7',
  },
  {
    name: 'bear wins, 21 + 22 against 24: 60.3',
    bull1: '21',
    bull2: '22',
    bear1: '24',
    lock: 130,
    close: 100,
    expected: [[bearUser1, '60.3']],
    treasury: '6.7',
  },
  {
    name: 'bull wins, 21 + 22 against 24: 29.448837209302325581 and 30.851162790697674418',
    bull1: '21',
    bull2: '22',
    bear1: '24',
    lock: 130,
    close: 140,
    expected: [
      [bullUser1, '29.448837209302325581'],
      [bullUser2, '30.851162790697674418'],
    ],
    treasury: '6.7',
  },
  {
    // Pancake's test checks only the treasury here; the claims are its formula, amount × 87.3 / 63.
    name: 'bull wins, 31 + 32 against 34: the treasury takes 9.7',
    bull1: '31',
    bull2: '32',
    bear1: '34',
    lock: 140,
    close: 150,
    expected: [
      [bullUser1, '42.957142857142857142'],
      [bullUser2, '44.342857142857142857'],
    ],
    treasury: '9.7',
  },
];

describe("PancakeSwap V2's reward scenarios, through the contract's claim", () => {
  for (const scenario of SCENARIOS) {
    test(scenario.name, async () => {
      const round = await world.nextRound(BNB);
      await world.publish(BNB, usd(100));
      const stakes = new Map<number, StakeRef>([
        [bullUser1, await world.betRound(bullUser1, round, YES, parseEther(scenario.bull1))],
        [bullUser2, await world.betRound(bullUser2, round, YES, parseEther(scenario.bull2))],
        [bearUser1, await world.betRound(bearUser1, round, NO, parseEther(scenario.bear1))],
      ]);
      await world.publish(BNB, usd(scenario.lock), round.lockAt - 1);
      await world.publish(BNB, usd(scenario.close), round.closeAt - 1);
      await world.travelTo(round.closeAt + 1);
      await world.settleRound(round);

      let paid = 0n;
      for (const [bettor, amount] of scenario.expected) {
        const stake = stakes.get(bettor);
        if (!stake) throw new Error('no stake');
        const receipt = await world.mined(world.as(STRANGER).write.claim([world.priceClaim(stake)]));
        const [claimed] = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Claimed' });
        expect(claimed?.args.amount).toBe(parseEther(amount));
        paid += parseEther(amount);
      }
      const pool = parseEther(scenario.bull1) + parseEther(scenario.bull2) + parseEther(scenario.bear1);
      const dust = pool - parseEther(scenario.treasury) - paid;
      // Dust is under one wei per winner, and goes to the fee once the last winner has claimed.
      expect(dust).toBeGreaterThanOrEqual(0n);
      expect(dust).toBeLessThan(BigInt(scenario.expected.length));
      expect((await world.market(round.key)).fee).toBe(parseEther(scenario.treasury) + dust);
      const before = await world.balance(TREASURY);
      await world.mined(world.as(STRANGER).write.collectFee([round.key]));
      expect((await world.balance(TREASURY)) - before).toBe(parseEther(scenario.treasury) + dust);
      // Nothing of the round is left owed.
      const market = await world.market(round.key);
      expect(market.paid + parseEther(scenario.treasury) + dust).toBe(pool);
    });
  }
});
