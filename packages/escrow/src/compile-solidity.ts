import solc from 'solc';
import { z } from 'zod';

// Solidity compiled offline by solc-js, the npm package's bundled wasm: never `loadRemoteVersion`, so
// nothing is ever downloaded. Used by packages/escrow/scripts/compile.ts and
// apps/server/scripts/build-contracts.ts.

const OutputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: z.array(z.unknown()),
          evm: z.object({ bytecode: z.object({ object: z.string() }) }),
        }),
      ),
    )
    .optional(),
});

export type CompiledContract = { abi: unknown[]; bytecode: string };

export type CompileOptions = {
  sources: Record<string, { content: string }>;
  evmVersion: string;
  optimizerRuns: number;
  /** Resolves an import the sources do not hold (e.g. from node_modules). */
  findImport?: (path: string) => { contents: string } | { error: string };
};

/** Compiles `sources`; throws with the compiler's messages on any error. */
export function compileSolidity(options: CompileOptions): {
  version: string;
  contract(source: string, name: string): CompiledContract;
} {
  const input = {
    language: 'Solidity',
    sources: options.sources,
    settings: {
      evmVersion: options.evmVersion,
      optimizer: { enabled: true, runs: options.optimizerRuns },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  // solc's types say `any`: pin down what we call and parse what comes back.
  const compile: (input: string, callbacks?: { import: CompileOptions['findImport'] }) => string =
    solc.compile;
  const version: () => string = solc.version;
  const callbacks = options.findImport ? { import: options.findImport } : undefined;
  const output = OutputSchema.parse(JSON.parse(compile(JSON.stringify(input), callbacks)));
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  return {
    version: version(),
    contract(source, name) {
      const compiled = output.contracts?.[source]?.[name];
      if (!compiled) throw new Error(`${name} missing from the compiler output`);
      return { abi: compiled.abi, bytecode: compiled.evm.bytecode.object };
    },
  };
}
