import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createPublicClient, http, isAddress } from 'viem';
import { parsePayoutList } from '../src/payout-list.ts';
import { formatSettlementReport, type VerifyOptions, verifySettlement } from '../src/verify-settlement.ts';

// Checks a published payout list against the escrow on chain, with nothing but an RPC:
//   npx tsx packages/escrow/scripts/verify-settlement.ts --rpc <url> --escrow <address> <list.json>
//     [--from-block N] [--to-block N] [--max-block-range N]
// Prints the report; exits 0 when the list matches the chain, 1 on any discrepancy, 2 when it could
// not check (bad arguments, an unreadable list, an RPC failure).

const USAGE =
  'usage: npx tsx packages/escrow/scripts/verify-settlement.ts --rpc <url> --escrow <address> <list.json> ' +
  '[--from-block N] [--to-block N] [--max-block-range N]';

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [file] = positionals;
  if (!values.rpc || !values.escrow || !file || positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  if (!isAddress(values.escrow)) {
    console.error(`--escrow is not an address: ${values.escrow}`);
    return 2;
  }
  let options: VerifyOptions;
  try {
    options = {
      fromBlock: blockNumber('--from-block', values['from-block']),
      toBlock: blockNumber('--to-block', values['to-block']),
      maxBlockRange: blockNumber('--max-block-range', values['max-block-range']),
    };
    if (options.maxBlockRange === 0n) throw new Error('--max-block-range must be at least 1');
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  try {
    const list = parsePayoutList(await readFile(file, 'utf8'));
    const client = createPublicClient({ transport: http(values.rpc) });
    const report = await verifySettlement(client, values.escrow, list, options);
    console.log(formatSettlementReport(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    console.error(`Could not verify: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

function parseOptions() {
  return parseArgs({
    options: {
      rpc: { type: 'string' },
      escrow: { type: 'string' },
      'from-block': { type: 'string' },
      'to-block': { type: 'string' },
      'max-block-range': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
}

function blockNumber(name: string, value: string | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value)) throw new Error(`${name} must be a block number, got ${value}`);
  return BigInt(value);
}

process.exitCode = await main();
