import { createServer } from 'node:http';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodeErrorResult,
  encodeEventTopics,
  encodeFunctionResult,
  type Hex,
  keccak256,
  numberToHex,
  toHex,
} from 'viem';

// For component tests: a loopback JSON-RPC node with one escrow contract, so the wallet's own calls run
// through wagmi and viem as in the app (renderWithApp's mock wallet forwards its sends here). The escrow
// keeps open stakes and credits and behaves as the contract does where the web cares: a spent stake
// reverts StakeMismatch, no credit reverts NothingToWithdraw, a claim pushes its payout (or credits it).

type RpcError = { code: number; message: string; data?: Hex };
type Receipt = Record<string, unknown>;

/** What the tests see and steer. */
export type TestChain = {
  url: string;
  escrow: Address;
  /** Stake ids still open on the contract. */
  openStakes: Set<string>;
  /** Credits by owner (lower case). */
  credits: Map<string, bigint>;
  /** The escrow calls mined, in order. */
  mined: Array<{ functionName: string; args: readonly unknown[] }>;
  /** Every JSON-RPC method asked, in order. */
  methods: string[];
  /** The next eth_sendTransaction is refused as a wallet's user would (4001). */
  rejectNextSend: () => void;
  /** Pushes fail from now on: a claim's payout becomes its owner's credit. */
  creditPushes: (on: boolean) => void;
  /** Holds receipts back until `release` (the "submitted, waiting for confirmation" step). */
  holdReceipts: () => { release: () => void };
  close: () => Promise<void>;
};

const ESCROW: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const ZERO32: Hex = `0x${'0'.repeat(64)}`;

export async function startTestChain(): Promise<TestChain> {
  const openStakes = new Set<string>();
  const credits = new Map<string, bigint>();
  const mined: TestChain['mined'] = [];
  const methods: string[] = [];
  const receipts = new Map<Hex, Receipt>();
  const sent = new Map<
    Hex,
    { tx: { from?: Address; to?: Address; data?: Hex }; nonce: number; blockNumber: bigint | null }
  >();
  let rejectSend = false;
  let creditPush = false;
  let held: Array<() => void> | null = null;
  let blockNumber = 100n;
  let nonce = 0;

  const revert = (errorName: string, args: readonly unknown[] = []): RpcError => ({
    code: 3,
    message: `execution reverted: ${errorName}`,
    data: encodeErrorResult({ abi: predictionEscrowAbi, errorName, args } as never),
  });

  /** What the escrow does with `data` from `from`: the effects to apply and logs to emit, or a revert. */
  const execute = (from: Address, data: Hex) => {
    const call = decodeFunctionData({ abi: predictionEscrowAbi, data });
    const logs: Array<{ topics: Hex[]; data: Hex }> = [];
    switch (call.functionName) {
      case 'claim':
      case 'refund': {
        const stake = call.functionName === 'claim' ? call.args[0].stake : call.args[0];
        const amount = call.functionName === 'claim' ? call.args[0].payout : call.args[0].amount;
        const id = stake.stakeId.toString();
        if (!openStakes.has(id)) return { error: revert('StakeMismatch', [stake.stakeId]) };
        return {
          call,
          apply: () => {
            openStakes.delete(id);
            if (!creditPush) return;
            const owner = stake.owner.toLowerCase();
            credits.set(owner, (credits.get(owner) ?? 0n) + amount);
            logs.push({
              topics: encodeEventTopics({
                abi: predictionEscrowAbi,
                eventName: 'Credited',
                args: { owner: stake.owner, stakeId: stake.stakeId },
              }) as Hex[],
              data: encodeAbiParameters([{ type: 'uint256' }], [amount]),
            });
          },
          logs,
        };
      }
      case 'withdraw': {
        const owner = from.toLowerCase();
        if (!credits.get(owner)) return { error: revert('NothingToWithdraw') };
        return { call, apply: () => credits.delete(owner), logs };
      }
      case 'credits':
        return {
          result: encodeFunctionResult({
            abi: predictionEscrowAbi,
            functionName: 'credits',
            result: credits.get(call.args[0].toLowerCase()) ?? 0n,
          }),
        };
      case 'stakes': {
        const id = call.args[0].toString();
        const hash = openStakes.has(id) ? keccak256(toHex(`stake ${id}`)) : ZERO32;
        return {
          result: encodeFunctionResult({ abi: predictionEscrowAbi, functionName: 'stakes', result: hash }),
        };
      }
      default:
        return { error: { code: -32000, message: `the test escrow does not do ${call.functionName}` } };
    }
  };

  const block = () => ({
    number: numberToHex(blockNumber),
    hash: keccak256(toHex(`block ${blockNumber}`)),
    parentHash: keccak256(toHex(`block ${blockNumber - 1n}`)),
    timestamp: numberToHex(Math.floor(Date.now() / 1000)),
    baseFeePerGas: '0x1',
    gasLimit: '0x1c9c380',
    gasUsed: '0x0',
    miner: `0x${'0'.repeat(40)}`,
    nonce: '0x0000000000000000',
    difficulty: '0x0',
    extraData: '0x',
    logsBloom: `0x${'0'.repeat(512)}`,
    receiptsRoot: ZERO32,
    sha3Uncles: ZERO32,
    stateRoot: ZERO32,
    transactionsRoot: ZERO32,
    mixHash: ZERO32,
    size: '0x0',
    totalDifficulty: '0x0',
    transactions: [],
    uncles: [],
  });

  const answer = (method: string, params: unknown[]): { result?: unknown; error?: RpcError } => {
    methods.push(method);
    const tx = (params[0] ?? {}) as { from?: Address; to?: Address; data?: Hex };
    switch (method) {
      case 'eth_chainId':
        return { result: '0x7a69' };
      case 'eth_blockNumber':
        return { result: numberToHex(blockNumber) };
      case 'eth_getBlockByNumber':
        return { result: block() };
      case 'eth_gasPrice':
      case 'eth_maxPriorityFeePerGas':
        return { result: '0x1' };
      case 'eth_getTransactionCount':
        return { result: numberToHex(nonce) };
      case 'eth_estimateGas': {
        const run = execute(tx.from ?? ESCROW, tx.data ?? '0x');
        return run.error ? { error: run.error } : { result: '0x30000' };
      }
      case 'eth_call': {
        const run = execute(tx.from ?? ESCROW, tx.data ?? '0x');
        if (run.error) return { error: run.error };
        return { result: 'result' in run ? run.result : '0x' };
      }
      case 'eth_sendTransaction': {
        if (rejectSend) {
          rejectSend = false;
          return { error: { code: 4001, message: 'User rejected the request.' } };
        }
        // A wallet estimates first: a call that would revert is refused with its revert data.
        const run = execute(tx.from ?? ESCROW, tx.data ?? '0x');
        if (run.error) return { error: run.error };
        if (!('apply' in run) || !run.apply) return { error: { code: -32000, message: 'not a transaction' } };
        run.apply();
        nonce += 1;
        mined.push({ functionName: run.call.functionName, args: run.call.args ?? [] });
        const hash = keccak256(toHex(`tx ${nonce}`));
        // The transaction lands in a new block: now, or when held receipts are released (a wallet
        // waiting for it sees the new block and asks for the receipt again).
        sent.set(hash, { tx, nonce: nonce - 1, blockNumber: null });
        const land = () => {
          blockNumber += 1n;
          receipts.set(hash, makeReceipt(hash, tx, blockNumber, run.logs));
          const entry = sent.get(hash);
          if (entry) entry.blockNumber = blockNumber;
        };
        if (held) held.push(land);
        else land();
        return { result: hash };
      }
      case 'eth_getTransactionReceipt':
        return { result: receipts.get(params[0] as Hex) ?? null };
      case 'eth_getTransactionByHash': {
        // A sent transaction, pending until its block lands (a wallet waiting for its receipt asks).
        const entry = sent.get(params[0] as Hex);
        if (!entry) return { result: null };
        const landed = entry.blockNumber;
        return {
          result: {
            hash: params[0],
            from: entry.tx.from ?? ESCROW,
            to: entry.tx.to ?? ESCROW,
            input: entry.tx.data ?? '0x',
            value: '0x0',
            nonce: numberToHex(entry.nonce),
            gas: '0x30000',
            gasPrice: '0x1',
            maxFeePerGas: '0x1',
            maxPriorityFeePerGas: '0x1',
            type: '0x2',
            chainId: '0x7a69',
            accessList: [],
            blockNumber: landed === null ? null : numberToHex(landed),
            blockHash: landed === null ? null : keccak256(toHex(`block ${landed}`)),
            transactionIndex: landed === null ? null : '0x0',
            v: '0x0',
            r: `0x${'11'.repeat(32)}`,
            s: `0x${'22'.repeat(32)}`,
            yParity: '0x0',
          },
        };
      }
      default:
        return { error: { code: -32601, message: `the test chain does not answer ${method}` } };
    }
  };

  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const parsed: unknown = JSON.parse(body || 'null');
      const one = (item: { id?: number; method: string; params?: unknown[] }) => ({
        jsonrpc: '2.0',
        id: item.id ?? null,
        ...answer(item.method, item.params ?? []),
      });
      const reply = Array.isArray(parsed) ? parsed.map(one) : one(parsed as never);
      response.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
      });
      response.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The test chain has no port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    escrow: ESCROW,
    openStakes,
    credits,
    mined,
    methods,
    rejectNextSend: () => {
      rejectSend = true;
    },
    creditPushes: (on) => {
      creditPush = on;
    },
    holdReceipts: () => {
      held = [];
      return {
        release: () => {
          for (const land of held ?? []) land();
          held = null;
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The wallet's fetches keep their connections alive: end them, or close waits seconds for them.
        server.closeAllConnections();
      }),
  };
}

function makeReceipt(
  hash: Hex,
  tx: { from?: Address; to?: Address },
  blockNumber: bigint,
  logs: Array<{ topics: Hex[]; data: Hex }>,
): Receipt {
  const blockHash = keccak256(toHex(`block ${blockNumber}`));
  return {
    transactionHash: hash,
    transactionIndex: '0x0',
    blockHash,
    blockNumber: numberToHex(blockNumber),
    from: tx.from,
    to: tx.to,
    contractAddress: null,
    cumulativeGasUsed: '0x30000',
    gasUsed: '0x30000',
    effectiveGasPrice: '0x1',
    logsBloom: `0x${'0'.repeat(512)}`,
    status: '0x1',
    type: '0x2',
    logs: logs.map((log, index) => ({
      address: tx.to,
      topics: log.topics,
      data: log.data,
      blockHash,
      blockNumber: numberToHex(blockNumber),
      logIndex: numberToHex(index),
      transactionHash: hash,
      transactionIndex: '0x0',
      removed: false,
    })),
  };
}
