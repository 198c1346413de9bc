import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSolidity } from '../src/compile-solidity.ts';

// Compiles contracts/ offline (src/compile-solidity.ts: solc-js, never a download) with OpenZeppelin
// from node_modules, into typed ABI + bytecode modules that are committed.
//   npx tsx packages/escrow/scripts/compile.ts          write the generated modules
//   npx tsx packages/escrow/scripts/compile.ts --check  exit 1 if a committed module is stale

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const require = createRequire(import.meta.url);

/** BSC runs the Pectra set since Pascal; the local Hardhat node (EDR) runs Osaka, a superset. */
export const EVM_VERSION = 'prague';
export const OPTIMIZER_RUNS = 1000;

const TARGETS = [
  {
    output: 'src/prediction-escrow.gen.ts',
    contracts: [
      {
        source: 'contracts/PredictionEscrow.sol',
        name: 'PredictionEscrow',
        prefix: 'predictionEscrow',
        // The runtime code too, for checking what is deployed (src/deploy.ts, ops doctor).
        runtime: true,
      },
    ],
  },
  {
    // The escrow that knows what it settles (docs/decisions/031-an-escrow-that-knows-what-it-settles.md).
    output: 'src/market-escrow.gen.ts',
    // Fewer runs than the rest: at 1,000 its runtime code is within a hundred bytes of EIP-170's
    // 24,576-byte limit; at 200 it keeps room, for a few hundred gas more per call.
    optimizerRuns: 200,
    contracts: [
      { source: 'contracts/MarketEscrow.sol', name: 'MarketEscrow', prefix: 'marketEscrow', runtime: true },
    ],
    // What the web encodes with, apart: a deposit and a claim load these few functions, never the
    // whole ABI or the bytecode.
    slices: [
      {
        output: 'src/market-deposits/market-deposit-abi.gen.ts',
        name: 'marketDepositAbi',
        functions: ['betRound', 'createPriceMarket', 'createJudgedMarket', 'bet', 'dispute'],
      },
      {
        output: 'src/market-claims/market-claim-abi.gen.ts',
        name: 'marketClaimAbi',
        functions: ['claim', 'claimMany', 'refund', 'refundMany'],
      },
    ],
  },
  {
    output: 'test/attackers.gen.ts',
    contracts: [
      { source: 'contracts/test/HostileBettor.sol', name: 'HostileBettor', prefix: 'hostileBettor' },
      { source: 'contracts/test/GasBurner.sol', name: 'GasBurner', prefix: 'gasBurner' },
      { source: 'contracts/test/ForceFeeder.sol', name: 'ForceFeeder', prefix: 'forceFeeder' },
      { source: 'contracts/test/HostileAccount.sol', name: 'HostileAccount', prefix: 'hostileAccount' },
    ],
  },
  {
    // The local chain's Chainlink-compatible price feeds (src/deploy-dev-feed.ts).
    output: 'src/dev-feeds.gen.ts',
    contracts: [
      {
        source: 'contracts/feeds/DevFeedAggregator.sol',
        name: 'DevFeedAggregator',
        prefix: 'devFeedAggregator',
      },
      { source: 'contracts/feeds/DevFeedProxy.sol', name: 'DevFeedProxy', prefix: 'devFeedProxy' },
    ],
  },
  {
    output: 'test/round-in-force.gen.ts',
    contracts: [
      {
        source: 'contracts/test/RoundInForceHarness.sol',
        name: 'RoundInForceHarness',
        prefix: 'roundInForceHarness',
      },
      {
        source: 'contracts/test/BackdatedFeedAggregator.sol',
        name: 'BackdatedFeedAggregator',
        prefix: 'backdatedFeedAggregator',
      },
    ],
  },
] as const;

/**
 * `@openzeppelin/...` imports resolve to the pinned package in node_modules; a source's relative import
 * (an interface, a library) to this package's contracts/.
 */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    if (path.startsWith('contracts/')) return { contents: readFileSync(join(PACKAGE, path), 'utf8') };
    if (!path.startsWith('@openzeppelin/contracts/')) return { error: `unknown import ${path}` };
    const root = dirname(require.resolve('@openzeppelin/contracts/package.json'));
    return { contents: readFileSync(join(root, path.slice('@openzeppelin/contracts/'.length)), 'utf8') };
  } catch (error) {
    return { error: String(error) };
  }
}

type Target = (typeof TARGETS)[number];

function runsOf(target: Target): number {
  return 'optimizerRuns' in target ? target.optimizerRuns : OPTIMIZER_RUNS;
}

export async function compileContracts(): Promise<Array<{ path: string; text: string }>> {
  // One compilation per optimizer setting, each with the sources of the targets that use it.
  const compilations = new Map<number, ReturnType<typeof compileSolidity>>();
  for (const runs of new Set(TARGETS.map(runsOf))) {
    const sources: Record<string, { content: string }> = {};
    for (const target of TARGETS.filter((t) => runsOf(t) === runs)) {
      for (const contract of target.contracts) {
        sources[contract.source] = { content: await readFile(join(PACKAGE, contract.source), 'utf8') };
      }
    }
    compilations.set(
      runs,
      compileSolidity({ sources, evmVersion: EVM_VERSION, optimizerRuns: runs, findImport }),
    );
  }

  return TARGETS.flatMap((target) => {
    const runs = runsOf(target);
    const output = compilations.get(runs);
    if (!output) throw new Error(`no compilation at ${runs} runs`);
    const header = [
      `// Generated by packages/escrow/scripts/compile.ts with solc ${output.version}`,
      `// (evmVersion ${EVM_VERSION}, optimizer ${runs} runs). Do not edit: change the source and run it.`,
    ];
    const lines = [...header];
    for (const contract of target.contracts) {
      const compiled = output.contract(contract.source, contract.name);
      lines.push(
        '',
        `/** ${contract.source} */`,
        `export const ${contract.prefix}Abi = ${JSON.stringify(compiled.abi, null, 2)} as const;`,
        '',
        `export const ${contract.prefix}Bytecode = '0x${compiled.bytecode}' as const;`,
      );
      if ('runtime' in contract && contract.runtime) {
        lines.push(
          '',
          '/** The runtime code, zeros where the constructor writes each immutable (at these byte ranges). */',
          `export const ${contract.prefix}DeployedBytecode = '0x${compiled.deployedBytecode}' as const;`,
          '',
          `export const ${contract.prefix}ImmutableReferences = ${JSON.stringify(compiled.immutableReferences)} as const;`,
        );
      }
    }
    const files: Array<{ path: string; text: string }> = [
      { path: target.output, text: `${lines.join('\n')}\n` },
    ];
    for (const slice of 'slices' in target ? target.slices : []) {
      const [contract] = target.contracts;
      const abi = output.contract(contract.source, contract.name).abi as ReadonlyArray<{
        type: string;
        name?: string;
      }>;
      const items = slice.functions.map((name) => {
        const item = abi.find((entry) => entry.type === 'function' && entry.name === name);
        if (!item) throw new Error(`${contract.name} has no function ${name}`);
        return item;
      });
      const text = [
        ...header,
        '',
        `/** ${contract.source}: ${slice.functions.join(', ')}, as compiled. */`,
        `export const ${slice.name} = ${JSON.stringify(items, null, 2)} as const;`,
        '',
      ].join('\n');
      files.push({ path: slice.output, text });
    }
    return files;
  });
}

/** The committed modules that differ from what the sources compile to. */
export async function staleModules(): Promise<string[]> {
  const stale: string[] = [];
  for (const file of await compileContracts()) {
    const current = await readFile(join(PACKAGE, file.path), 'utf8').catch(() => '');
    if (current !== file.text) stale.push(file.path);
  }
  return stale;
}

async function main() {
  if (process.argv.includes('--check')) {
    const stale = await staleModules();
    for (const path of stale)
      process.stderr.write(`${path} is out of date: run packages/escrow/scripts/compile.ts\n`);
    if (stale.length > 0) process.exit(1);
    return;
  }
  for (const file of await compileContracts()) {
    await writeFile(join(PACKAGE, file.path), file.text);
    process.stdout.write(`wrote packages/escrow/${file.path}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
