import { ConfigResponseSchema } from '@pm/core/contract/config';
import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { marketBetTerms } from '@pm/escrow/deposit-terms';
import { type FetchAnswer, fetchTransport } from '@pm/pay-and-post/fetch-transport';
import { postBet } from '@pm/pay-and-post/pay-and-post-bet';
import { depositPaymentCall } from '@pm/pay-and-post/payment-call';
import {
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hash,
  http,
  parseEther,
  publicActions,
  toHex,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { DEV_MNEMONIC } from '../apps/server/src/config/dev-accounts.ts';
import { percentile } from './percentile.ts';
import { cpuMs, findHardhatPid, postgresCpuMs, postgresCpuSince } from './process-stats.ts';

// Bets recorded per second end to end (decision 024): real deposits into the escrow on the local
// Hardhat chain, each then posted to POST /api/markets/:id/bets, which verifies it on chain and
// records it. Every wallet sends its bets one after another (its nonce orders them); wallets run at
// once.
//
// A wallet prepares what it knows, as a real client does: its chain, its nonce (read once, then
// counted locally), the gas of the transfer (the same for every bet) and the fees, read once; each
// bet is signed locally and sent with one eth_sendRawTransaction (viem's sendTransaction would ask
// the node for all of these again, five calls per transfer). What a bet's transaction holds and
// what its request says come from the shared driver (@pm/pay-and-post), as in every test tool;
// only the signing is the bench's own. A stage's transfers are signed before
// its clock starts: a bettor signs on their own device, and this machine's two cores are the
// server's, the node's and PostgreSQL's to measure. Hardhat mines one block per
// transaction (automine) before it answers.
//
// Three figures name the bound: the chain alone (transfers, no POST), the server alone (POSTs of
// transfers already mined), then both together, end to end; and the CPU per bet of the server and
// of the Hardhat node (from /proc).

const WALLETS = 40;
const BETS_PER_WALLET = 25;
/** Transfers per wallet for the two stage figures (chain alone, then the server alone on them). */
const STAGE_BETS_PER_WALLET = 5;

export type BetsResult = {
  bets: number;
  seconds: number;
  perSecond: number;
  wallets: number;
  /** Transfers mined per second with no POST. */
  chainOnlyPerSecond: number;
  /** POSTs of already mined transfers recorded per second, as many at once as there are wallets. */
  serverOnlyPerSecond: number;
  /** End to end, per bet: the transfer (sign, send, mined), and the POST. */
  chainMs: { p50: number; p99: number };
  postMs: { p50: number; p99: number };
  /** CPU time per bet recorded end to end (undefined where /proc is not readable). */
  cpuMsPerBet: {
    server?: number | undefined;
    chain?: number | undefined;
    /** Every PostgreSQL process on this machine (the server's connections among them). */
    database?: number | undefined;
  };
};

export async function measureEndToEndBets(input: {
  baseUrl: string;
  rpcUrl: string;
  marketId: number;
  serverPid?: number;
  log: (line: string) => void;
}): Promise<BetsResult> {
  const chain = defineChain({
    id: 31337,
    name: 'Hardhat',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [input.rpcUrl] } },
  });
  const transport = http(input.rpcUrl);
  // Accounts #100… of the dev mnemonic: never the operator key (#0), the demo's players, nor the 20 the
  // node funds; the bench funds them itself (hardhat_setBalance, the local chain only).
  const node = createTestClient({ chain, mode: 'hardhat', transport });
  const wallets = await Promise.all(
    Array.from({ length: WALLETS }, async (_, index) => {
      const key = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 100 + index }).getHdKey().privateKey;
      if (!key) throw new Error('no dev key');
      const wallet = createWalletClient({
        chain,
        transport,
        account: privateKeyToAccount(toHex(key)),
      }).extend(publicActions);
      await node.setBalance({ address: wallet.account.address, value: parseEther('1000') });
      return wallet;
    }),
  );
  const bet = { marketId: input.marketId, prediction: 'YES', amountWei: parseEther('0.01') } as const;
  // A bet is a deposit into the escrow under the market's published escrow id and close (decision 026).
  const config = ConfigResponseSchema.parse(await (await fetch(`${input.baseUrl}/api/config`)).json());
  const { market } = MarketDetailResponseSchema.parse(
    await (await fetch(`${input.baseUrl}/api/markets/${input.marketId}`)).json(),
  );
  if (!config.escrow || !market.escrowId) throw new Error('the bench bets into the escrow: none configured');
  const call = depositPaymentCall({
    escrow: getAddress(config.escrow.address),
    terms: marketBetTerms(
      { escrowId: market.escrowId as `0x${string}`, closesAt: market.closesAt },
      bet.prediction,
    ),
    amountWei: bet.amountWei,
  });
  const first = wallets[0];
  if (!first) throw new Error('no wallet');
  const gas = await first.estimateGas({ account: first.account, ...call });
  const fees = await first.estimateFeesPerGas();
  const senders = await Promise.all(
    wallets.map(async (wallet) => {
      let nonce = await wallet.getTransactionCount({ address: wallet.account.address, blockTag: 'pending' });
      const sign = () =>
        wallet.account.signTransaction({
          chainId: chain.id,
          type: 'eip1559',
          ...call,
          gas,
          nonce: nonce++,
          maxFeePerGas: fees.maxFeePerGas * 2n,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        });
      const signed: Array<`0x${string}`> = [];
      return {
        address: wallet.account.address,
        /** Signs the next `count` transfers now, before a measurement's clock starts. */
        async prepare(count: number): Promise<void> {
          for (let i = 0; i < count; i += 1) signed.push(await sign());
        },
        async pay(): Promise<Hash> {
          const serializedTransaction = signed.shift() ?? (await sign());
          return wallet.sendRawTransaction({ serializedTransaction });
        },
      };
    }),
  );
  const api = fetchTransport(input.baseUrl);
  /** Null once recorded, else what the server answered. */
  const post = async (address: `0x${string}`, txHash: Hash) => {
    const { response }: { response: FetchAnswer } = await postBet(api, {
      ...bet,
      userAddress: address,
      txHash,
    });
    return response.status === 201
      ? null
      : `${response.status} ${JSON.stringify(response.json).slice(0, 120)}`;
  };
  const failures: string[] = [];

  // Warm-up, not counted: one bet per wallet end to end, so the server's first requests (compiling
  // the path, opening pool connections) do not land in the server-alone figure.
  await Promise.all(senders.map(async (sender) => post(sender.address, await sender.pay())));

  // 1. The chain alone: every wallet pays, nothing is posted yet.
  await Promise.all(senders.map((sender) => sender.prepare(STAGE_BETS_PER_WALLET)));
  let started = performance.now();
  const mined = (
    await Promise.all(
      senders.map(async (sender) => {
        const hashes: Array<{ address: `0x${string}`; txHash: Hash }> = [];
        for (let bet = 0; bet < STAGE_BETS_PER_WALLET; bet += 1)
          hashes.push({ address: sender.address, txHash: await sender.pay() });
        return hashes;
      }),
    )
  ).flat();
  const chainOnlyPerSecond = mined.length / ((performance.now() - started) / 1000);

  // 2. The server alone: those mined transfers posted, as many at once as there are wallets.
  started = performance.now();
  const queue = [...mined];
  let serverRecorded = 0;
  await Promise.all(
    senders.map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const failure = await post(next.address, next.txHash);
        if (failure) failures.push(failure);
        else serverRecorded += 1;
      }
    }),
  );
  const serverOnlyPerSecond = serverRecorded / ((performance.now() - started) / 1000);

  // 3. End to end: each wallet pays, posts, and pays its next bet once that one is recorded.
  await Promise.all(senders.map((sender) => sender.prepare(BETS_PER_WALLET)));
  const chainPid = findHardhatPid(input.rpcUrl);
  const cpuBefore = { server: cpuMs(input.serverPid), chain: cpuMs(chainPid) };
  const databaseBefore = postgresCpuMs();
  const chainTimes: number[] = [];
  const postTimes: number[] = [];
  let recorded = 0;
  started = performance.now();
  await Promise.all(
    senders.map(async (sender) => {
      for (let bet = 0; bet < BETS_PER_WALLET; bet += 1) {
        const paying = performance.now();
        const txHash = await sender.pay();
        const posting = performance.now();
        chainTimes.push(posting - paying);
        const failure = await post(sender.address, txHash);
        postTimes.push(performance.now() - posting);
        if (failure) failures.push(failure);
        else recorded += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const perBet = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined || recorded === 0 ? undefined : (after - before) / recorded;
  const cpuMsPerBet = {
    server: perBet(cpuBefore.server, cpuMs(input.serverPid)),
    chain: perBet(cpuBefore.chain, cpuMs(chainPid)),
    database: perBet(0, postgresCpuSince(databaseBefore)),
  };
  if (failures.length > 0) input.log(`bets: ${failures.length} not recorded, first: ${failures[0]}`);
  const spread = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  };
  const result: BetsResult = {
    bets: recorded,
    seconds,
    perSecond: recorded / seconds,
    wallets: WALLETS,
    chainOnlyPerSecond,
    serverOnlyPerSecond,
    chainMs: spread(chainTimes),
    postMs: spread(postTimes),
    cpuMsPerBet,
  };
  const ms = (value: number | undefined) => (value === undefined ? '?' : value.toFixed(1));
  input.log(
    `bets: ${recorded} recorded end to end in ${seconds.toFixed(1)} s (${result.perSecond.toFixed(1)}/s, ${WALLETS} wallets); ` +
      `chain alone ${chainOnlyPerSecond.toFixed(0)} tx/s, server alone ${serverOnlyPerSecond.toFixed(0)} bets/s; ` +
      `per bet: transfer p50 ${result.chainMs.p50.toFixed(0)} ms, POST p50 ${result.postMs.p50.toFixed(0)} ms ` +
      `(p99 ${result.postMs.p99.toFixed(0)}); CPU per bet: server ${ms(cpuMsPerBet.server)} ms, Hardhat ${ms(cpuMsPerBet.chain)} ms, ` +
      `PostgreSQL ${ms(cpuMsPerBet.database)} ms`,
  );
  return result;
}
