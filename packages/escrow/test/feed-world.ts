import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  encodeDeployData,
  getAddress,
  type Hex,
} from 'viem';
import { decodeRevert } from '../src/decode-revert.ts';
import { devFeedProxyAbi, devFeedProxyBytecode } from '../src/dev-feeds.gen.ts';
import { devAccount, startChainClients } from './chain-clients.ts';
import {
  backdatedFeedAggregatorAbi,
  backdatedFeedAggregatorBytecode,
  roundInForceHarnessAbi,
  roundInForceHarnessBytecode,
} from './round-in-force.gen.ts';

// A Hardhat node with RoundInForce's harness, and feeds to prove rounds of: dev feeds (rounds updated
// at their block's time) or proxies over back-dated histories, phase by phase.

/** Chainlink's phase bits: a proxy's round id is `(phase << 64) | aggregatorRound`. */
export const roundIdOf = (phase: number, aggregatorRound: bigint): bigint =>
  (BigInt(phase) << 64n) | aggregatorRound;

/** RoundInForce.Verdict by its value. */
export const VERDICT = { InForce: 0, Stale: 1, NotPositive: 2 } as const;
export type VerdictName = keyof typeof VERDICT;
const VERDICT_NAMES = ['InForce', 'Stale', 'NotPositive'] as const;

/** A proof's result: the verdict and the round's data, or the error the library reverted with. */
export type ProofResult =
  | { proved: true; verdict: VerdictName; answer: bigint; updatedAt: bigint }
  | { proved: false; error: string; args: readonly unknown[] };

/** One round of a back-dated history: its id within its phase's aggregator, answer and time (s). */
export type HistoryRound = { round: bigint; answer: bigint; updatedAt: bigint };

/** A phase's aggregator: its rounds, and whether it reverts (else answers zeros) for a round without data. */
export type HistoryPhase = { rounds: HistoryRound[]; revertsWithoutData?: boolean };

/** A time long before the node's clock (2020), for back-dated histories: every instant after it is past. */
export const T0 = 1_600_000_000n;

export const OWNER = 0;
export const WRITER = 1;
export const STRANGER = 2;

export async function createFeedWorld() {
  const { node, publicClient, testClient, walletOf, mined } = await startChainClients({
    pollingInterval: 20,
  });

  async function deploy(data: Hex, from = OWNER): Promise<Address> {
    const receipt = await mined(walletOf(from).sendTransaction({ data }));
    if (!receipt.contractAddress) throw new Error('no contract address');
    return getAddress(receipt.contractAddress);
  }

  const harness = await deploy(
    encodeDeployData({ abi: roundInForceHarnessAbi, bytecode: roundInForceHarnessBytecode }),
  );

  /** An aggregator holding `phase`'s rounds (written in one transaction). */
  async function backdatedAggregator(phase: HistoryPhase): Promise<Address> {
    const address = await deploy(
      encodeDeployData({
        abi: backdatedFeedAggregatorAbi,
        bytecode: backdatedFeedAggregatorBytecode,
        args: [phase.revertsWithoutData ?? false],
      }),
    );
    if (phase.rounds.length > 0) {
      await mined(
        walletOf(OWNER).writeContract({
          address,
          abi: backdatedFeedAggregatorAbi,
          functionName: 'setRounds',
          args: [
            phase.rounds.map((round) => round.round),
            phase.rounds.map((round) => round.answer),
            phase.rounds.map((round) => round.updatedAt),
          ],
        }),
      );
    }
    return address;
  }

  /** A proxy over back-dated aggregators, one per phase in order (phase 1 first). */
  async function backdatedFeed(phases: HistoryPhase[]): Promise<{ proxy: Address; aggregators: Address[] }> {
    const aggregators: Address[] = [];
    for (const phase of phases) aggregators.push(await backdatedAggregator(phase));
    const [first, ...later] = aggregators;
    if (!first) throw new Error('a feed has a phase at least');
    const proxy = await deploy(
      encodeDeployData({
        abi: devFeedProxyAbi,
        bytecode: devFeedProxyBytecode,
        args: [devAccount(OWNER).address, first],
      }),
    );
    for (const next of later) await setAggregator(proxy, next);
    return { proxy, aggregators };
  }

  async function setAggregator(proxy: Address, next: Address, from = OWNER) {
    return mined(
      walletOf(from).writeContract({
        address: proxy,
        abi: devFeedProxyAbi,
        functionName: 'setAggregator',
        args: [next],
      }),
    );
  }

  const harnessRead = {
    address: harness,
    abi: roundInForceHarnessAbi,
  } as const;

  /** RoundInForce.prove(feed, roundId, instant, maxAge), its revert decoded. */
  async function prove(
    feed: Address,
    roundId: bigint,
    instant: bigint,
    maxAge: bigint,
  ): Promise<ProofResult> {
    try {
      const price = await publicClient.readContract({
        ...harnessRead,
        functionName: 'prove',
        args: [feed, roundId, instant, maxAge],
      });
      return provedPrice(price);
    } catch (error) {
      return refused(error);
    }
  }

  /** The proof at `secondsAgo` before the block's own time: 0 is the block's instant itself. */
  async function proveSecondsAgo(
    feed: Address,
    roundId: bigint,
    secondsAgo: bigint,
    maxAge: bigint,
  ): Promise<ProofResult> {
    try {
      const price = await publicClient.readContract({
        ...harnessRead,
        functionName: 'proveSecondsAgo',
        args: [feed, roundId, secondsAgo, maxAge],
      });
      return provedPrice(price);
    } catch (error) {
      return refused(error);
    }
  }

  /** Many ids at one instant, in one call. */
  async function proveEach(
    feed: Address,
    roundIds: bigint[],
    instant: bigint,
    maxAge: bigint,
  ): Promise<ProofResult[]> {
    const outcomes = await publicClient.readContract({
      ...harnessRead,
      functionName: 'proveEach',
      args: [feed, roundIds, instant, maxAge],
    });
    return outcomes.map((outcome): ProofResult => {
      if (outcome.proved) return provedPrice(outcome.price);
      const decoded = decodeErrorResult({ abi: roundInForceHarnessAbi, data: outcome.revertData });
      return { proved: false, error: decoded.errorName, args: decoded.args ?? [] };
    });
  }

  /** The gas of each proof in turn within one call, as a settlement would prove its lock and close. */
  async function gasOfProofs(
    feed: Address,
    proofs: Array<{ roundId: bigint; instant: bigint }>,
    maxAge: bigint,
  ): Promise<readonly bigint[]> {
    return publicClient.readContract({
      ...harnessRead,
      functionName: 'gasOfProofs',
      args: [feed, proofs.map((proof) => proof.roundId), proofs.map((proof) => proof.instant), maxAge],
    });
  }

  async function latestTimestamp(): Promise<bigint> {
    return (await publicClient.getBlock()).timestamp;
  }

  return {
    publicClient,
    testClient,
    walletOf,
    mined,
    deploy,
    harness,
    backdatedAggregator,
    backdatedFeed,
    setAggregator,
    prove,
    proveSecondsAgo,
    proveEach,
    gasOfProofs,
    latestTimestamp,
    stop: () => node.stop(),
  };
}

export type FeedWorld = Awaited<ReturnType<typeof createFeedWorld>>;

/** RoundInForce.Price as the tests compare it. */
function provedPrice(price: { verdict: number; answer: bigint; updatedAt: bigint }): ProofResult {
  const verdict = VERDICT_NAMES[price.verdict];
  if (!verdict) throw new Error(`no verdict ${price.verdict}`);
  return { proved: true, verdict, answer: price.answer, updatedAt: price.updatedAt };
}

/** A refused proof: the library's named error (anything else is the test's failure, rethrown). */
function refused(error: unknown): ProofResult {
  const revert = decodeRevert(error, roundInForceHarnessAbi);
  if (!revert) throw error;
  return { proved: false, error: revert.errorName, args: revert.args };
}

/** Whether a failed read is the contract's revert (a feed without that round), not a network fault. */
export function isRevert(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof ContractFunctionRevertedError) instanceof
      ContractFunctionRevertedError
  );
}
